package view

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/queries"
)

// maxRemembered bounds the hashes kept from episode reads (then the map
// starts over; a hash not in it is looked up in the lake).
const maxRemembered = 200_000

// blobRef is where a recorded hash's bytes are: in a pack (kind "pack",
// pack the pack's hash) or a screenshot file (kind "screen", the episode
// folder and the path the lake records in it).
type blobRef struct {
	kind, pack, dir, path string
}

func (s *Server) remember(sha string, ref blobRef) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.blobs) >= maxRemembered {
		clear(s.blobs)
	}
	s.blobs[sha] = ref
}

// isSHA256 reports whether v is 64 lowercase hex digits.
func isSHA256(v string) bool { return len(v) == 64 && strings.Trim(v, "0123456789abcdef") == "" }

// lookup finds where the lake records sha: remembered from an episode
// read, else in the lake (evidence packs and their images, actions'
// screenshots). An unrecorded hash is errNotFound.
func (s *Server) lookup(ctx context.Context, sha string) ([]blobRef, error) {
	if !isSHA256(sha) {
		return nil, fmt.Errorf("%q is not a sha256: %w", sha, errNotFound)
	}
	s.mu.Lock()
	ref, ok := s.blobs[sha]
	s.mu.Unlock()
	if ok {
		return []blobRef{ref}, nil
	}
	var refs []queries.ViewerBlobRef
	err := s.withSession(ctx, func(sess *queries.Session) (err error) {
		refs, err = sess.ViewerBlob(ctx, sha)
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []blobRef
	for _, r := range refs {
		if r.Kind == "pack" {
			out = append(out, blobRef{kind: "pack", pack: r.Ref})
		} else {
			out = append(out, blobRef{kind: "screen", dir: r.Ref, path: r.Path})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the lake records no blob %s: %w", sha, errNotFound)
	}
	return out, nil
}

// packsCached is how many decoded packs are kept (an episode page asks for
// each of a pack's images in turn).
const packsCached = 8

// pack returns the decoded pack sha from the lake's pack store.
func (s *Server) pack(sha string) (*judge.Pack, error) {
	s.mu.Lock()
	p, ok := s.packs.vals[sha]
	s.mu.Unlock()
	if ok {
		return p, nil
	}
	data, err := s.store.Get(sha)
	if err != nil {
		return nil, err
	}
	if p, err = judge.DecodePack(data); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.packs.put(sha, p, packsCached)
	return p, nil
}

// fifo holds the values last put, by key, forgetting the oldest past size.
type fifo[V any] struct {
	keys []string
	vals map[string]V
}

func (c *fifo[V]) put(key string, v V, size int) {
	if c.vals == nil {
		c.vals = map[string]V{}
	}
	if len(c.keys) == size {
		delete(c.vals, c.keys[0])
		c.keys = c.keys[1:]
	}
	c.keys = append(c.keys, key)
	c.vals[key] = v
}

// blob is GET /blobs/{sha256}: an image (or file) by content hash, only
// when the lake records the hash; the bytes served always hash to it.
func (s *Server) blob(w http.ResponseWriter, r *http.Request) {
	sha := r.PathValue("sha")
	refs, err := s.lookup(r.Context(), sha)
	if err != nil {
		s.fail(w, err)
		return
	}
	for _, ref := range refs {
		data, ok := s.blobBytes(ref, sha)
		if !ok {
			continue
		}
		h := w.Header()
		h.Set("Content-Type", http.DetectContentType(data))
		h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
		h.Set("Cache-Control", "private, max-age=31536000, immutable")
		http.ServeContent(w, r, "", zeroTime, bytes.NewReader(data))
		return
	}
	s.fail(w, fmt.Errorf("blob %s is recorded but its bytes are gone or changed: %w", sha, errNotFound))
}

// blobBytes reads ref's bytes and checks that they hash to sha.
func (s *Server) blobBytes(ref blobRef, sha string) ([]byte, bool) {
	var data []byte
	switch ref.kind {
	case "pack":
		p, err := s.pack(ref.pack)
		if err != nil {
			return nil, false
		}
		for _, im := range p.Images {
			if im.SHA256 == sha {
				data = im.Data
				break
			}
		}
	case "screen":
		b, err := os.ReadFile(filepath.Join(ref.dir, filepath.FromSlash(ref.path)))
		if err != nil {
			return nil, false
		}
		data = b
	}
	return data, data != nil && judge.SHA256Hex(data) == sha
}

// PackView is a pack as sent to the judge, its images as URLs instead of
// bytes (GET /api/packs/{sha256}).
type PackView struct {
	SHA256       string          `json:"sha256"`
	Format       string          `json:"format"`
	Condition    string          `json:"condition"`
	TaskText     string          `json:"task_text"`
	Description  string          `json:"evidence_description"`
	Steps        []judge.Step    `json:"steps"`
	Messages     []judge.Message `json:"messages"`
	Images       []ImageView     `json:"images"`
	FinalMessage *string         `json:"final_message"`
}

// ImageView is one screenshot of a pack.
type ImageView struct {
	Step      int64  `json:"step"`
	MediaType string `json:"media_type"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	SHA256    string `json:"sha256"`
	URL       string `json:"url"`
}

func packView(sha string, p *judge.Pack) *PackView {
	v := &PackView{SHA256: sha, Format: p.Format, Condition: p.Condition, TaskText: p.TaskText, Description: p.Description,
		Steps: nonNil(p.Steps), Messages: nonNil(p.Messages), FinalMessage: p.FinalMessage,
		Images: make([]ImageView, len(p.Images))}
	for i, im := range p.Images {
		v.Images[i] = ImageView{Step: im.Step, MediaType: im.MediaType, Width: im.Width, Height: im.Height, SHA256: im.SHA256, URL: "/blobs/" + im.SHA256}
	}
	return v
}

// apiPack is GET /api/packs/{sha256}: a pack the lake records.
func (s *Server) apiPack(w http.ResponseWriter, r *http.Request) {
	sha := r.PathValue("sha")
	refs, err := s.lookup(r.Context(), sha)
	if err != nil {
		s.fail(w, err)
		return
	}
	if refs[0].kind != "pack" || refs[0].pack != sha {
		s.fail(w, fmt.Errorf("%s is not a pack: %w", sha, errNotFound))
		return
	}
	p, err := s.pack(sha)
	if err != nil {
		s.fail(w, fmt.Errorf("%v: %w", err, errNotFound))
		return
	}
	writeJSON(w, packView(sha, p))
}

// evidenceRow is an evidence table row as read.
type evidenceRow struct {
	Condition  string `json:"condition"`
	PackSHA256 string `json:"pack_sha256"`
	Inputs     string `json:"inputs"`
	NImages    int64  `json:"n_images"`
	PackBytes  int64  `json:"pack_bytes"`
	Guard      string `json:"guard"`
}

// EvidencePack is one condition's pack on the episode page: the evidence
// row and the pack itself (null when the store lacks it; a notice says so).
type EvidencePack struct {
	Condition  string    `json:"condition"`
	PackSHA256 string    `json:"pack_sha256"`
	Inputs     []string  `json:"inputs"`
	NImages    int64     `json:"n_images"`
	PackBytes  int64     `json:"pack_bytes"`
	Guard      string    `json:"guard"`
	Pack       *PackView `json:"pack"`
	// ImagesShown is how many of the pack's images the page shows
	// (maxImages at most).
	ImagesShown int `json:"images_shown"`
}

// fillEvidence loads each condition's pack and records its hashes.
func (s *Server) fillEvidence(d *EpisodeDetail, rows []evidenceRow) {
	d.Evidence = []EvidencePack{}
	for _, e := range rows {
		ep := EvidencePack{Condition: e.Condition, PackSHA256: e.PackSHA256, NImages: e.NImages, PackBytes: e.PackBytes, Guard: e.Guard}
		json.Unmarshal([]byte(e.Inputs), &ep.Inputs)
		p, err := s.pack(e.PackSHA256)
		if err != nil {
			d.Notices = append(d.Notices, fmt.Sprintf("pack %s of %s: %v", e.PackSHA256, e.Condition, err))
		} else {
			ep.Pack = packView(e.PackSHA256, p)
			ep.ImagesShown = min(len(p.Images), maxImages)
			if len(p.Images) > maxImages {
				d.Notices = append(d.Notices, fmt.Sprintf("%s: showing %d of %d screenshots", e.Condition, maxImages, len(p.Images)))
			}
			for _, im := range p.Images {
				s.remember(im.SHA256, blobRef{kind: "pack", pack: e.PackSHA256})
			}
			s.remember(e.PackSHA256, blobRef{kind: "pack", pack: e.PackSHA256})
			if d.Instruction == nil {
				d.Instruction = new(p.TaskText)
			}
		}
		d.Evidence = append(d.Evidence, ep)
	}
}
