package judge

import (
	"cmp"
	"fmt"
	"os"
	"strings"
)

// OptionError is a mistake in the options a command gave (a usage error):
// Msg says what, Hint what to try.
type OptionError struct{ Msg, Hint string }

func (e *OptionError) Error() string { return e.Msg }

// UsageHint is what to try instead.
func (e *OptionError) UsageHint() string { return e.Hint }

func optionError(hint, format string, args ...any) error {
	return &OptionError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// BackendSpec picks and configures a backend: Name is openai, anthropic,
// exec or rm-http; KeyEnv names the variable holding the API key (default
// per backend); PassEnv the variables handed to an exec command.
type BackendSpec struct {
	Name, Model, BaseURL, KeyEnv, Command string
	PassEnv                               []string
	Conns                                 int
}

// NewBackend builds the backend of s; the API key comes from the
// environment only.
func NewBackend(s BackendSpec) (Backend, error) {
	keyEnv := s.KeyEnv
	var defURL string
	const which = "trustlake judge --backend openai|anthropic|exec|rm-http ..."
	switch s.Name {
	case "openai":
		keyEnv, defURL = cmp.Or(keyEnv, "OPENAI_API_KEY"), "https://api.openai.com/v1"
	case "anthropic":
		keyEnv, defURL = cmp.Or(keyEnv, "ANTHROPIC_API_KEY"), "https://api.anthropic.com"
	case "rm-http":
		keyEnv = cmp.Or(keyEnv, "RM_API_KEY")
		if s.BaseURL == "" {
			return nil, optionError("trustlake judge --backend rm-http --base-url http://localhost:8000/score ...", "rm-http needs --base-url")
		}
	case "exec":
		if strings.TrimSpace(s.Command) == "" {
			return nil, optionError("trustlake judge --backend exec --exec './my_judge.py' ...", "the exec backend needs --exec COMMAND")
		}
		var env []string
		for _, name := range SplitList(s.PassEnv) {
			v, ok := os.LookupEnv(name)
			if !ok {
				return nil, optionError("export "+name+"=... before --pass-env "+name, "--pass-env %s: %s is not set", name, name)
			}
			env = append(env, name+"="+v)
		}
		return &Exec{Command: s.Command, Env: env, Secrets: EnvSecrets(os.Environ())}, nil
	case "":
		return nil, optionError(which, "no --backend given")
	default:
		return nil, optionError(which, "unknown backend %q", s.Name)
	}
	if s.Model == "" && s.Name != "rm-http" {
		return nil, optionError("trustlake judge --model MODEL ...", "--backend %s needs --model", s.Name)
	}
	base := cmp.Or(s.BaseURL, defURL)
	key := os.Getenv(keyEnv)
	if key == "" && s.BaseURL == "" && defURL != "" {
		return nil, optionError(fmt.Sprintf("export %s=... (or --api-key-env VAR, or --base-url for a local server)", keyEnv),
			"%s is not set: the %s backend reads its API key from the environment only", keyEnv, s.Name)
	}
	h := HTTPOptions{BaseURL: base, APIKey: key, Secrets: EnvSecrets(os.Environ(), keyEnv), Client: NewHTTPClient(max(s.Conns, 1))}
	switch s.Name {
	case "openai":
		return &OpenAI{HTTPOptions: h}, nil
	case "anthropic":
		return &Anthropic{HTTPOptions: h}, nil
	}
	return &RMHTTP{HTTPOptions: h}, nil
}

// ApplyTo sets what this bench.yaml entry gives on spec, r and conds,
// except where isSet says the command line gave it.
func (jc ConfigJudge) ApplyTo(spec *BackendSpec, r *RunOptions, conds *[]string, isSet func(flag string) bool) {
	set := func(flag string, apply func()) {
		if !isSet(flag) {
			apply()
		}
	}
	set("backend", func() { spec.Name = cmp.Or(jc.Backend, spec.Name) })
	set("model", func() { spec.Model = cmp.Or(cmp.Or(jc.Model, jc.Path), spec.Model) })
	set("base-url", func() { spec.BaseURL = cmp.Or(jc.BaseURL, spec.BaseURL) })
	set("exec", func() { spec.Command = cmp.Or(jc.Command, spec.Command) })
	set("temperature", func() { r.Temperature = *cmp.Or(jc.Temperature, &r.Temperature) })
	set("runs", func() { r.Runs = cmp.Or(jc.Runs, r.Runs) }) // ParseConfig refuses negative runs
	set("conditions", func() {
		if len(jc.Conditions) > 0 {
			*conds = jc.Conditions
		}
	})
}

// ApplyTo sets what bench.yaml's evidence section e gives on p, except where
// isSet says the command line gave it (flags k, max-image-side, max-images).
func (e PackOptions) ApplyTo(p *PackOptions, isSet func(flag string) bool) {
	if e.LastK > 0 && !isSet("k") {
		p.LastK = e.LastK
	}
	if e.MaxImageSide > 0 && !isSet("max-image-side") {
		p.MaxImageSide = e.MaxImageSide
	}
	if e.MaxImages > 0 && !isSet("max-images") {
		p.MaxImages = e.MaxImages
	}
}

// CheckRun checks r's limits, named by trustlake judge's flags.
func CheckRun(r RunOptions) error {
	if r.MaxRetryWait <= 0 || r.MaxRetryWait > MaxRetryWait {
		return optionError("", "judge: --max-retry-wait %s: want more than 0 and at most %s", r.MaxRetryWait, MaxRetryWait)
	}
	if r.Runs < 1 || r.Concurrency < 1 || r.MaxCalls < 0 || r.RatePerMinute < 0 || r.Temperature < 0 {
		return optionError("", "judge: --runs and --concurrency must be ≥ 1; --max-calls, --rpm and --temperature ≥ 0")
	}
	return nil
}

// CheckVariant refuses a prompt other than the default rubric under a pack
// condition's own name: a variant runs only under its own condition names.
// arg is the prompt as the command line gave it.
func CheckVariant(p Prompt, arg string, conds []JudgeCondition) error {
	if p.Name == DefaultPrompt {
		return nil
	}
	for _, jc := range conds {
		if jc.Name == jc.Pack {
			return optionError(fmt.Sprintf("trustlake judge --prompt %s --conditions %s-variant=%s ...", arg, jc.Pack, jc.Pack),
				"judge: prompt %s is not the default rubric: it runs only under its own condition names, and %s is a pack condition", p.Name, jc.Name)
		}
	}
	return nil
}
