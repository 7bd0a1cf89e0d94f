package ingest

import (
	"os"
	"syscall"

	"github.com/trustlake/trustlake/schema"
)

// openRegular opens name for reading only when it is a regular file: a
// FIFO, a device (/dev/zero), a socket or a folder is refused up front with
// schema.ErrPath, so a read can neither block forever nor run without end.
// The file is opened non-blocking (opening a FIFO without a writer returns
// at once) and checked on the open descriptor, so a swap between the check
// and the open cannot slip a FIFO in. With follow false a symlink is refused
// too (inside episode folders); command-line arguments may be symlinks to
// regular files. The loops that read the file check their context between
// chunks: a regular file always ends, so none waits on a read.
func openRegular(name string, follow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if !follow {
		fi, err := os.Lstat(name)
		if err != nil {
			return nil, err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(name)
			return nil, schema.Reason(schema.ErrPath, "symlink (to %s); symlinks are not followed", target)
		}
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(name, flags, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, schema.Reason(schema.ErrPath, "not a regular file (%s); only regular files are read", kindOf(fi.Mode()))
	}
	return f, nil
}

// kindOf names a non-regular file mode for messages.
func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}
