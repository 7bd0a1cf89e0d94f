package sandbox

import (
	"archive/tar"
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/klauspost/compress/zstd"
)

// ExtractLimits bound one snapshot extraction. Zero values mean the defaults.
type ExtractLimits struct {
	MaxBytes  int64  // regular-file bytes written in total; 0 means 1 GiB
	MaxFiles  int    // entries of any kind; 0 means 100000
	MaxWindow uint64 // zstd window and decoder memory; 0 means 64 MiB
}

// ExtractStats counts what one extraction wrote.
type ExtractStats struct {
	Files     int   // regular files
	Dirs      int   // directories (explicit entries only)
	Symlinks  int   // symbolic links
	Hardlinks int   // hard links
	Bytes     int64 // regular-file bytes written
}

// EntryError is an archive entry refused as unsafe. It unwraps to ErrUnsafe.
type EntryError struct {
	Name   string // entry name as written in the archive
	Reason string // e.g. "path escapes root"
}

// Error returns "snapshot entry NAME: REASON".
func (e *EntryError) Error() string {
	return fmt.Sprintf("snapshot entry %s: %s", e.Name, e.Reason)
}

// Unwrap returns ErrUnsafe.
func (e *EntryError) Unwrap() error { return ErrUnsafe }

func (l ExtractLimits) withDefaults() ExtractLimits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = 1 << 30
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = 100000
	}
	l.MaxWindow = cmp.Or(l.MaxWindow, 64<<20)
	return l
}

var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// ExtractSnapshotFile extracts the archive at src (final_state.tar.zst, or a plain
// tar) into dst; see ExtractSnapshot.
func ExtractSnapshotFile(ctx context.Context, src, dst string, lim ExtractLimits) (ExtractStats, error) {
	f, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return ExtractStats{}, fmt.Errorf("open snapshot: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return ExtractStats{}, fmt.Errorf("open snapshot: %w", err)
	} else if !fi.Mode().IsRegular() {
		return ExtractStats{}, fmt.Errorf("open snapshot %s: %w: not a regular file", src, ErrUnsafe)
	} else if fi.Size() == 0 {
		return ExtractStats{}, fmt.Errorf("extract %s: %w: the file is empty", src, ErrEmptySnapshot)
	}
	st, err := ExtractSnapshot(ctx, f, dst, lim)
	if err != nil {
		return st, fmt.Errorf("extract %s: %w", src, err)
	}
	return st, nil
}

// ExtractSnapshot extracts a zstd-compressed (or plain) tar stream into dst, which
// must be missing or an empty directory; dst is left with mode 0755.
//
// Only regular files, directories, symbolic links and hard links are accepted.
// Absolute names, names escaping the root, symbolic links whose target is absolute
// or leaves the root, hard links to anything but an earlier regular file, device
// files, fifos and sockets are refused with an *EntryError (errors.Is ErrUnsafe),
// as is going over lim (sizes in headers are checked before any byte is written,
// so a huge sparse entry fails at once). All writes go through an os.Root, so no
// write can leave dst even through links. Ownership, set-id bits and times are
// not restored: files get mode 0644 (0755 when any execute bit is set), dirs 0755,
// so that the unprivileged sandbox user can read them.
//
// On error, dst holds what was written so far; the caller removes it.
func ExtractSnapshot(ctx context.Context, r io.Reader, dst string, lim ExtractLimits) (ExtractStats, error) {
	lim = lim.withDefaults()
	var st ExtractStats
	if err := prepareDest(dst); err != nil {
		return st, err
	}
	root, err := os.OpenRoot(dst)
	if err != nil {
		return st, fmt.Errorf("open destination: %w", err)
	}
	defer root.Close()

	br := bufio.NewReader(r)
	var src io.Reader = br
	if head, _ := br.Peek(4); bytes.Equal(head, zstdMagic) {
		dec, err := zstd.NewReader(br,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(lim.MaxWindow),
			zstd.WithDecoderMaxMemory(lim.MaxWindow))
		if err != nil {
			return st, fmt.Errorf("open zstd: %w", err)
		}
		defer dec.Close()
		src = dec
	}
	x := extractor{root: root, lim: lim, st: &st, regular: map[string]bool{}}
	tr := tar.NewReader(src)
	for entries := 0; ; entries++ {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		hdr, err := tr.Next()
		if err == io.EOF && entries == 0 {
			return st, fmt.Errorf("%w: the archive holds no entries", ErrEmptySnapshot)
		}
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			return st, fmt.Errorf("read snapshot: %w", err)
		}
		if entries >= lim.MaxFiles {
			return st, &EntryError{hdr.Name, fmt.Sprintf("more than %d entries", lim.MaxFiles)}
		}
		if err := x.entry(ctx, hdr, tr); err != nil {
			return st, err
		}
	}
}

func prepareDest(dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("create destination: %w", err)
	}
	ents, err := os.ReadDir(dst)
	if err != nil {
		return fmt.Errorf("read destination: %w", err)
	}
	if len(ents) > 0 {
		return fmt.Errorf("extract snapshot: destination %s is not empty", dst)
	}
	if err := os.Chmod(dst, 0o755); err != nil {
		return fmt.Errorf("chmod destination: %w", err)
	}
	return nil
}

type extractor struct {
	root    *os.Root
	lim     ExtractLimits
	st      *ExtractStats
	regular map[string]bool // cleaned names of extracted regular files
}

// cleanName validates an archive path and returns it relative to the root.
func cleanName(name string) (string, string) {
	switch {
	case name == "":
		return "", "empty name"
	case strings.ContainsRune(name, 0):
		return "", "NUL in name"
	case path.IsAbs(name):
		return "", "absolute path"
	}
	c := path.Clean(name)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", "path escapes root"
	}
	return c, ""
}

func (x *extractor) entry(ctx context.Context, hdr *tar.Header, r io.Reader) error {
	name, why := cleanName(hdr.Name)
	if why != "" {
		return &EntryError{hdr.Name, why}
	}
	unsafe := func(reason string) error { return &EntryError{hdr.Name, reason} }
	switch hdr.Typeflag {
	case tar.TypeChar, tar.TypeBlock:
		return unsafe("device file")
	case tar.TypeFifo:
		return unsafe("fifo")
	case tar.TypeDir:
		if name == "." {
			return nil
		}
		if err := x.root.MkdirAll(name, 0o755); err != nil {
			return fmt.Errorf("snapshot entry %s: %w", hdr.Name, err)
		}
		x.st.Dirs++
		return nil
	case tar.TypeReg, tar.TypeRegA:
		return x.file(ctx, hdr, name, r)
	case tar.TypeSymlink:
		return x.symlink(hdr, name)
	case tar.TypeLink:
		return x.hardlink(hdr, name)
	default:
		if hdr.Typeflag == 's' || hdr.FileInfo().Mode()&os.ModeSocket != 0 {
			return unsafe("socket")
		}
		return unsafe(fmt.Sprintf("unsupported entry type %q", hdr.Typeflag))
	}
}

func (x *extractor) parent(hdr *tar.Header, name string) error {
	if dir := path.Dir(name); dir != "." {
		if err := x.root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("snapshot entry %s: %w", hdr.Name, err)
		}
	}
	if name == "." {
		return &EntryError{hdr.Name, "names the root"}
	}
	// A later entry replaces an earlier one of the same name; never write through it.
	if _, err := x.root.Lstat(name); err == nil {
		if err := x.root.RemoveAll(name); err != nil {
			return fmt.Errorf("snapshot entry %s: %w", hdr.Name, err)
		}
		delete(x.regular, name)
	}
	return nil
}

func (x *extractor) file(ctx context.Context, hdr *tar.Header, name string, r io.Reader) error {
	left := x.lim.MaxBytes - x.st.Bytes
	if hdr.Size < 0 || hdr.Size > left {
		return &EntryError{hdr.Name, fmt.Sprintf("size %d exceeds the byte limit (%d of %d left)", hdr.Size, left, x.lim.MaxBytes)}
	}
	if err := x.parent(hdr, name); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if hdr.Mode&0o111 != 0 {
		mode = 0o755
	}
	f, err := x.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("snapshot entry %s: %w", hdr.Name, err)
	}
	n, err := io.Copy(f, stopReader{ctx.Err, io.LimitReader(r, left+1)})
	x.st.Bytes += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("snapshot entry %s: %w", hdr.Name, err)
	}
	if n > left {
		return &EntryError{hdr.Name, fmt.Sprintf("exceeds the byte limit %d", x.lim.MaxBytes)}
	}
	if err := x.root.Chmod(name, mode); err != nil { // umask-independent
		return fmt.Errorf("snapshot entry %s: %w", hdr.Name, err)
	}
	x.regular[name] = true
	x.st.Files++
	return nil
}

func (x *extractor) symlink(hdr *tar.Header, name string) error {
	target := hdr.Linkname
	switch {
	case target == "":
		return &EntryError{hdr.Name, "symlink with empty target"}
	case path.IsAbs(target):
		return &EntryError{hdr.Name, fmt.Sprintf("symlink to absolute path %s", target)}
	}
	resolved := path.Join(path.Dir(name), target)
	if resolved == ".." || strings.HasPrefix(resolved, "../") {
		return &EntryError{hdr.Name, fmt.Sprintf("symlink target %s escapes root", target)}
	}
	if err := x.parent(hdr, name); err != nil {
		return err
	}
	if err := x.root.Symlink(target, name); err != nil {
		return fmt.Errorf("snapshot entry %s: %w", hdr.Name, err)
	}
	x.st.Symlinks++
	return nil
}

func (x *extractor) hardlink(hdr *tar.Header, name string) error {
	target, why := cleanName(hdr.Linkname)
	if why != "" {
		return &EntryError{hdr.Name, fmt.Sprintf("hard link target %s: %s", hdr.Linkname, why)}
	}
	if !x.regular[target] {
		return &EntryError{hdr.Name, fmt.Sprintf("hard link target %s is not an earlier regular file", hdr.Linkname)}
	}
	if target == name {
		return nil
	}
	if err := x.parent(hdr, name); err != nil {
		return err
	}
	if err := x.root.Link(target, name); err != nil {
		return fmt.Errorf("snapshot entry %s: %w", hdr.Name, err)
	}
	x.regular[name] = true
	x.st.Hardlinks++
	return nil
}

// stopReader reads r until stopped returns an error (a context's Err: the
// reader keeps the function, not the context), so that a copy stops with it.
type stopReader struct {
	stopped func() error
	r       io.Reader
}

func (c stopReader) Read(p []byte) (int, error) {
	if err := c.stopped(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
