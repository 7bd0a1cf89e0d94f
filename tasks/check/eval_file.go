package check

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
)

// maxFileBytes bounds what a check reads from one file.
const maxFileBytes = 64 << 20

// readFile reads a file under root, refusing non-regular files and files
// larger than maxFileBytes.
func readFile(root *os.Root, p string) ([]byte, error) {
	f, err := root.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", p, maxFileBytes)
	}
	return data, nil
}

// shortErr drops the root prefix os.Root puts into errors.
func shortErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

func evalExists(s *Spec, final *os.Root) (bool, any, error) {
	st, err := final.Lstat(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return s.Type == TypeFileAbsent, "absent", nil
	}
	if err != nil {
		return false, nil, shortErr(err)
	}
	kind := "file"
	switch {
	case st.IsDir():
		kind = "dir"
	case st.Mode()&fs.ModeSymlink != 0:
		kind = "symlink"
	case !st.Mode().IsRegular():
		kind = "other"
	}
	// file_absent wants nothing, so any kind fails it.
	want := map[string]string{TypeFileExists: "file", TypeDirExists: "dir"}[s.Type]
	return kind == want, kind, nil
}

func evalUnchanged(s *Spec, final, init *os.Root) (bool, any, error) {
	want, errW := readFile(init, s.Path)
	got, errG := readFile(final, s.Path)
	switch {
	case errors.Is(errW, fs.ErrNotExist) && errors.Is(errG, fs.ErrNotExist):
		return true, "absent", nil
	case errors.Is(errG, fs.ErrNotExist):
		return false, "removed", nil
	case errors.Is(errW, fs.ErrNotExist):
		return false, "created", nil
	case errW != nil:
		return false, nil, shortErr(errW)
	case errG != nil:
		return false, nil, shortErr(errG)
	}
	if bytes.Equal(want, got) {
		return true, "same", nil
	}
	return false, "modified", nil
}

func evalText(s *Spec, data []byte) (bool, any, error) {
	if s.Type == TypeTextContains {
		return bytes.Contains(data, []byte(s.Contains)), nil, nil
	}
	re, err := regexp.Compile("(?m)" + s.Regex)
	if err != nil {
		return false, nil, fmt.Errorf("regex: %w", err)
	}
	m := re.Find(data)
	if m == nil {
		return false, nil, nil
	}
	return true, truncate(string(m), 200), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
