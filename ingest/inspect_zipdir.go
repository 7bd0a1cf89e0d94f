package ingest

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/trustlake/trustlake/schema"
)

// zipDir reads an .eval's ZIP central directory one entry at a time from
// the file, so no memory is kept per entry: archive/zip reads the whole
// directory at open (~300 bytes an entry, 30 MB for 100,000 samples), and
// even a compact index of the samples grows with them.
type zipDir struct {
	f          *os.File
	size       int64
	start, end int64 // the directory's bytes
	entries    uint64
}

// zipEntry is one directory record: where its data starts and how to
// check it.
type zipEntry struct {
	name        string
	method      uint16
	crc         uint32
	csize       uint64
	usize       uint64
	localHeader uint64 // offset of the entry's local header
	off         int64  // start of the compressed data (set by item)
}

const (
	zipEndSig      = 0x06054b50
	zip64EndSig    = 0x06064b50
	zip64LocSig    = 0x07064b50
	zipDirSig      = 0x02014b50
	zipLocalSig    = 0x04034b50
	zipEndLen      = 22
	zip64LocLen    = 20
	zipDirFixedLen = 46
	zipLocalLen    = 30
)

// openZipDir finds the central directory from the end records (ZIP64 ones
// too: a log of more than 65,535 samples needs them).
func openZipDir(f *os.File, size int64) (*zipDir, error) {
	tail := min(size, zipEndLen+65535)
	buf := make([]byte, tail)
	if _, err := f.ReadAt(buf, size-tail); err != nil {
		return nil, err
	}
	at := -1
	for i := len(buf) - zipEndLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(buf[i:]) == zipEndSig {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, zip.ErrFormat
	}
	end := buf[at:]
	d := &zipDir{f: f, size: size}
	d.entries = uint64(binary.LittleEndian.Uint16(end[10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(end[12:]))
	dirOff := uint64(binary.LittleEndian.Uint32(end[16:]))
	if endOff := size - tail + int64(at); endOff >= zip64LocLen {
		var loc [zip64LocLen]byte
		if _, err := f.ReadAt(loc[:], endOff-zip64LocLen); err != nil {
			return nil, err
		}
		if binary.LittleEndian.Uint32(loc[:]) == zip64LocSig {
			var e64 [56]byte
			off := int64(binary.LittleEndian.Uint64(loc[8:]))
			if off < 0 || off+56 > size {
				return nil, zip.ErrFormat
			}
			if _, err := f.ReadAt(e64[:], off); err != nil {
				return nil, err
			}
			if binary.LittleEndian.Uint32(e64[:]) != zip64EndSig {
				return nil, zip.ErrFormat
			}
			d.entries = binary.LittleEndian.Uint64(e64[32:])
			dirSize = binary.LittleEndian.Uint64(e64[40:])
			dirOff = binary.LittleEndian.Uint64(e64[48:])
		}
	}
	if dirOff > uint64(size) || dirSize > uint64(size)-dirOff || d.entries > dirSize/zipDirFixedLen {
		return nil, zip.ErrFormat
	}
	d.start, d.end = int64(dirOff), int64(dirOff+dirSize)
	return d, nil
}

// zipDirError is a directory that cannot be read (each's own errors; fn's
// pass unchanged).
type zipDirError struct{ err error }

func (e *zipDirError) Error() string { return e.err.Error() }

// each calls fn with every directory record, in file order.
func (d *zipDir) each(fn func(*zipEntry) error) error {
	r := bufio.NewReaderSize(io.NewSectionReader(d.f, d.start, d.end-d.start), 64<<10)
	var fixed [zipDirFixedLen]byte
	var rest []byte
	var e zipEntry
	for range d.entries {
		if _, err := io.ReadFull(r, fixed[:]); err != nil || binary.LittleEndian.Uint32(fixed[:]) != zipDirSig {
			return &zipDirError{zip.ErrFormat}
		}
		e = zipEntry{
			method:      binary.LittleEndian.Uint16(fixed[10:]),
			crc:         binary.LittleEndian.Uint32(fixed[16:]),
			csize:       uint64(binary.LittleEndian.Uint32(fixed[20:])),
			usize:       uint64(binary.LittleEndian.Uint32(fixed[24:])),
			localHeader: uint64(binary.LittleEndian.Uint32(fixed[42:])),
		}
		nameLen, extraLen, commentLen := int(binary.LittleEndian.Uint16(fixed[28:])), int(binary.LittleEndian.Uint16(fixed[30:])), int(binary.LittleEndian.Uint16(fixed[32:]))
		n := nameLen + extraLen + commentLen
		if cap(rest) < n {
			rest = make([]byte, n)
		}
		rest = rest[:n]
		if _, err := io.ReadFull(r, rest); err != nil {
			return &zipDirError{zip.ErrFormat}
		}
		e.name = string(rest[:nameLen])
		if err := e.zip64(rest[nameLen : nameLen+extraLen]); err != nil {
			return &zipDirError{err}
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return nil
}

// zip64 reads the sizes and offset a ZIP64 extra field holds for those
// the record marks as too large for 32 bits.
func (e *zipEntry) zip64(extra []byte) error {
	for len(extra) >= 4 {
		tag, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		extra = extra[4:]
		if n > len(extra) {
			return zip.ErrFormat
		}
		field := extra[:n]
		extra = extra[n:]
		if tag != 0x0001 {
			continue
		}
		for _, v := range []*uint64{&e.usize, &e.csize, &e.localHeader} {
			if *v != 0xFFFFFFFF {
				continue
			}
			if len(field) < 8 {
				return zip.ErrFormat
			}
			*v = binary.LittleEndian.Uint64(field)
			field = field[8:]
		}
	}
	return nil
}

// item returns the entry with where its compressed data is, from its
// local header.
func (d *zipDir) item(e *zipEntry) (zipEntry, error) {
	it := *e
	var lh [zipLocalLen]byte
	if e.localHeader > uint64(d.size) {
		return it, zip.ErrFormat
	}
	if _, err := d.f.ReadAt(lh[:], int64(e.localHeader)); err != nil {
		return it, err
	}
	if binary.LittleEndian.Uint32(lh[:]) != zipLocalSig {
		return it, zip.ErrFormat
	}
	it.off = int64(e.localHeader) + zipLocalLen + int64(binary.LittleEndian.Uint16(lh[26:])) + int64(binary.LittleEndian.Uint16(lh[28:]))
	return it, nil
}

// Caps on one .eval entry (header.json or one sample), checked against the
// ZIP directory before anything is inflated: a sample of a few MB that
// inflates to gigabytes (a ZIP bomb) is refused, not read.
const (
	// maxEvalEntryBytes is the largest uncompressed entry read.
	maxEvalEntryBytes = 256 << 20
	// maxEvalEntryRatio is the largest uncompressed:compressed ratio of
	// an entry larger than evalRatioFloor (deflate cannot exceed about
	// 1032:1; JSON logs compress 5-50:1).
	maxEvalEntryRatio = 200
	// evalRatioFloor: smaller entries are not ratio-checked (a short
	// repetitive entry compresses well and costs nothing).
	evalRatioFloor = 1 << 20
)

// checkEvalEntry refuses an entry over the size or ratio caps.
func checkEvalEntry(it *zipEntry) error {
	if it.usize > maxEvalEntryBytes {
		return schema.Reason(schema.ErrValue, "entry inflates to %d bytes, over the cap of %d (%d MiB)", it.usize, maxEvalEntryBytes, maxEvalEntryBytes>>20)
	}
	if it.usize > evalRatioFloor && it.usize > maxEvalEntryRatio*max(it.csize, 1) {
		return schema.Reason(schema.ErrValue, "entry inflates %d bytes to %d, over the %d:1 compression ratio cap (a ZIP bomb?)", it.csize, it.usize, maxEvalEntryRatio)
	}
	return nil
}

// item reads one entry whole, checking its size and CRC-32 as
// archive/zip does; the read stops one byte past the size the directory
// gives, which checkEvalEntry caps.
func (z *evalZip) item(it *zipEntry) ([]byte, error) {
	if it.off < 0 || int64(it.csize) < 0 || int64(it.usize) < 0 || it.off+int64(it.csize) > z.size {
		return nil, z.entryErr(it.name, zip.ErrFormat)
	}
	if err := checkEvalEntry(it); err != nil {
		return nil, &schema.RecordError{File: z.name + ":" + it.name, Err: err}
	}
	if cap(z.buf) < int(it.csize) {
		z.buf = make([]byte, it.csize)
	}
	comp := z.buf[:it.csize]
	if _, err := z.f.ReadAt(comp, it.off); err != nil {
		return nil, z.entryErr(it.name, err)
	}
	var r io.Reader
	switch it.method {
	case zip.Store:
		r = bytes.NewReader(comp)
	case zip.Deflate:
		if z.fl == nil {
			z.fl = flate.NewReader(bytes.NewReader(comp))
		} else if err := z.fl.(flate.Resetter).Reset(bytes.NewReader(comp), nil); err != nil {
			return nil, z.entryErr(it.name, err)
		}
		r = z.fl
	case zipMethodZstd:
		if err := z.dec.Reset(bytes.NewReader(comp)); err != nil {
			return nil, z.entryErr(it.name, err)
		}
		r = z.dec
	default:
		return nil, z.entryErr(it.name, zip.ErrAlgorithm)
	}
	// Read one byte past the size the directory gives, to catch a longer
	// entry without reading a hostile one whole.
	b := bytes.NewBuffer(make([]byte, 0, min(it.usize+bytes.MinRead, 64<<20)))
	if _, err := io.Copy(b, io.LimitReader(r, int64(it.usize)+1)); err != nil {
		return nil, z.entryErr(it.name, err)
	}
	out := b.Bytes()
	if uint64(len(out)) != it.usize {
		return nil, z.entryErr(it.name, fmt.Errorf("%d bytes, the ZIP directory says %d", len(out), it.usize))
	}
	if crc32.ChecksumIEEE(out) != it.crc {
		return nil, z.entryErr(it.name, zip.ErrChecksum)
	}
	return out, nil
}

func (z *evalZip) entryErr(entry string, err error) error {
	var re *schema.RecordError
	if errors.As(err, &re) {
		return re
	}
	if errors.Is(err, zip.ErrAlgorithm) {
		return &schema.RecordError{File: z.name + ":" + entry, Err: schema.Reason(schema.ErrValue, "unsupported ZIP compression method")}
	}
	return &schema.RecordError{File: z.name + ":" + entry, Err: schema.Reason(schema.ErrSyntax, "read entry: %v", err)}
}
