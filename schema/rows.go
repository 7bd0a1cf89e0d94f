package schema

import "time"

// Provenance fields shared by every row: where the row came from, so that a
// conflict can name both sources. They are stored, and excluded from the
// content hash.
type Provenance struct {
	SrcFile string `parquet:"_src_file,dict" json:"-" lake:"nohash"`
	SrcLine int64  `parquet:"_src_line" json:"-" lake:"nohash"`
}

// Origin returns the row's source file and line.
func (p Provenance) Origin() (string, int64) { return p.SrcFile, p.SrcLine }

// Episode is one agent run (seed §4.1 meta.json). Partition: agent.
type Episode struct {
	EpisodeID        string     `parquet:"episode_id,dict" lake:"key"`
	TaskID           string     `parquet:"task_id,dict"`
	Source           string     `parquet:"source,dict"`
	Agent            string     `parquet:"-" lake:"partition=agent"`
	AgentVersion     *string    `parquet:"agent_version,optional,dict"`
	AgentSeed        *int64     `parquet:"agent_seed,optional"`
	NSteps           *int64     `parquet:"n_steps,optional"`
	FinalMessage     *string    `parquet:"final_message,optional" lake:"freetext"`
	SandboxImage     *string    `parquet:"sandbox_image,optional,dict"`
	CreatedAt        *time.Time `parquet:"created_at,optional,timestamp(microsecond)"`
	ParentEpisodeID  *string    `parquet:"parent_episode_id,optional"`
	Perturbation     *string    `parquet:"perturbation,optional,dict"`
	Dir              string     `parquet:"dir" lake:"nohash"`           // episode folder as given to ingest (a lake can be fed from another place)
	FinalStatePath   *string    `parquet:"final_state_path,optional"`   // relative to Dir
	FinalStateSHA256 *string    `parquet:"final_state_sha256,optional"` // hex
	NScreens         int64      `parquet:"n_screens"`
	Extra            string     `parquet:"extra" lake:"freetext"` // JSON object of unknown meta.json fields; "{}" when none
	Provenance
}

// Action is one step of an episode (actions.jsonl), or one message of a
// tool-calling trajectory. Partition: agent.
type Action struct {
	EpisodeID    string  `parquet:"episode_id,dict" lake:"key"`
	Agent        string  `parquet:"-" lake:"partition=agent"`
	Step         int64   `parquet:"step" lake:"key"`
	Action       *string `parquet:"action,optional,dict"`
	Role         *string `parquet:"role,optional,dict"` // system|user|assistant|tool for chat trajectories
	Text         *string `parquet:"text,optional" lake:"freetext"`
	Keys         *string `parquet:"keys,optional"`
	Screen       *string `parquet:"screen,optional"`        // path relative to the episode folder
	ScreenSHA256 *string `parquet:"screen_sha256,optional"` // hex, when the file exists
	ToolName     *string `parquet:"tool_name,optional,dict"`
	Arguments    *string `parquet:"arguments,optional" lake:"freetext"` // JSON text
	Observation  *string `parquet:"observation,optional" lake:"freetext"`
	Extra        string  `parquet:"extra" lake:"freetext"` // JSON object of unknown fields
	Provenance
}

// Gate is one check of a verifier that can zero a score (seed 004, D1).
type Gate struct {
	ID     string `json:"id"`
	Type   string `json:"type"` // critical|process|administrative
	Passed bool   `json:"passed"`
}

// GroundTruth is a reference verdict for an episode: a verifier's (gt.json,
// Source GTVerifier, keyed by the verifier's hash) or one human annotator's
// pass/fail judgment (Source GTHuman, keyed by the annotator; no verifier
// hash). Natural key (episode_id, verifier_sha256, annotator).
type GroundTruth struct {
	EpisodeID      string   `parquet:"episode_id" lake:"key"`
	VerifierSHA256 string   `parquet:"verifier_sha256,dict" lake:"key"` // "" for human judgments
	Pass           bool     `parquet:"pass"`
	Score          *float64 `parquet:"score,optional"`
	Category       *string  `parquet:"category,optional,dict"`      // one of Categories, else null
	CategoryRaw    *string  `parquet:"category_raw,optional,dict"`  // as written by the verifier
	Diagnostics    string   `parquet:"diagnostics" lake:"freetext"` // JSON; "null" when absent
	Gates          string   `parquet:"gates"`                       // JSON array of Gate; "[]" when absent
	Deterministic  *bool    `parquet:"deterministic,optional"`
	// Source is GTVerifier or GTHuman. It is left out of the content hash:
	// rows written before the column existed read back "" and keep their
	// hash; Annotator (in the key) already tells human rows apart.
	Source    string  `parquet:"source,dict" lake:"nohash"`
	Annotator *string `parquet:"annotator,optional,dict" lake:"key"` // GTHuman only
	Provenance
}

// Ground-truth sources.
const (
	GTVerifier = "verifier"
	GTHuman    = "human"
)

// Label is a human review of an episode's failure category.
type Label struct {
	EpisodeID   string  `parquet:"episode_id" lake:"key"`
	Category    *string `parquet:"category,optional,dict"`
	CategoryRaw string  `parquet:"category_raw,dict"`
	Annotator   *string `parquet:"annotator,optional,dict"`
	Note        *string `parquet:"note,optional" lake:"freetext"`
	Provenance
}

// Verdict is one judge call (seed §4.4 verdict line). Partitions: judge, condition.
type Verdict struct {
	EpisodeID  string     `parquet:"episode_id" lake:"key"`
	Judge      string     `parquet:"-" lake:"key,partition=judge"`
	Condition  string     `parquet:"-" lake:"key,partition=condition"`
	Run        int64      `parquet:"run" lake:"key"`
	Verdict    *string    `parquet:"verdict,optional,dict"` // null for score-only judges (reward models)
	Score      *float64   `parquet:"score,optional"`
	Confidence *float64   `parquet:"confidence,optional"`
	Model      *string    `parquet:"model,optional,dict"` // exact model id
	CalledAt   *time.Time `parquet:"called_at,optional,timestamp(microsecond)"`
	Extra      string     `parquet:"extra" lake:"freetext"` // JSON object of unknown fields
	// Written by the judge runner (null in verdicts ingested from files).
	PackSHA256   *string `parquet:"pack_sha256,optional"`        // the evidence pack the judge saw
	PromptSHA256 *string `parquet:"prompt_sha256,optional,dict"` // the prompt template it was asked with
	LatencyMS    *int64  `parquet:"latency_ms,optional"`         // the successful call's latency
	InputTokens  *int64  `parquet:"input_tokens,optional"`
	OutputTokens *int64  `parquet:"output_tokens,optional"`
	Raw          *string `parquet:"raw,optional" lake:"freetext"` // the reply text (capped) when verdict is parse_error
	Provenance
}

// Evidence is one evidence pack: what every judge saw for an episode under
// a condition (seed §3.5). The pack itself is stored content-addressed
// beside the lake; this row records its hash and what went into it.
// Partition: condition.
type Evidence struct {
	EpisodeID    string `parquet:"episode_id" lake:"key"`
	Condition    string `parquet:"-" lake:"key,partition=condition"`
	PackSHA256   string `parquet:"pack_sha256"`
	TaskID       string `parquet:"task_id,dict"`
	Inputs       string `parquet:"inputs,dict"`  // JSON array of the pack fields present (task_text, screenshots, actions, messages, final_message)
	Steps        string `parquet:"steps"`        // JSON array of the steps whose screenshots or actions are included
	ImageSHA256  string `parquet:"image_sha256"` // JSON array: sha256 of each image as sent (downsampled PNG)
	NImages      int64  `parquet:"n_images"`
	ImageBytes   int64  `parquet:"image_bytes"`
	PackBytes    int64  `parquet:"pack_bytes"` // size of the canonical encoding
	LastK        int64  `parquet:"last_k"`
	MaxImageSide int64  `parquet:"max_image_side"`
	MaxImages    int64  `parquet:"max_images"`
	Guard        string `parquet:"guard,dict"` // the leakage guard version the pack passed
	Provenance
}

// Result is one recorded benchmark run, audited by the Trust Layer.
// Partition: benchmark.
type Result struct {
	ResultID      string  `parquet:"result_id" lake:"key"`
	Benchmark     string  `parquet:"-" lake:"partition=benchmark"`
	TaskID        string  `parquet:"task_id,dict"`
	Agent         string  `parquet:"agent,dict"`
	Trial         int64   `parquet:"trial"`
	RecordedScore float64 `parquet:"recorded_score"`
	RecordedPass  bool    `parquet:"recorded_pass"`
	EpisodeID     *string `parquet:"episode_id,optional"`
	FinalMessage  *string `parquet:"final_message,optional" lake:"freetext"`
	Instruction   *string `parquet:"instruction,optional" lake:"freetext"`
	Grader        string  `parquet:"grader" lake:"freetext"` // JSON: what the grader needs to re-run (reference outputs, actions, ...)
	Infra         *string `parquet:"infra_error,optional"`   // non-null when the run failed for infrastructure reasons
	Extra         string  `parquet:"extra" lake:"freetext"`
	Provenance
}
