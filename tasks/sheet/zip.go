package sheet

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// zipEpoch is the modification time of every member Write emits; a fixed
// time keeps output byte-for-byte reproducible.
var zipEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// readMember returns the bytes of the zip member name, bounded by maxEntryBytes.
// It returns (nil, nil) when the member does not exist.
func readMember(zr *zip.Reader, name string) ([]byte, error) {
	for _, f := range zr.File {
		if f.Name != name {
			continue
		}
		if f.UncompressedSize64 > maxEntryBytes {
			return nil, fmt.Errorf("%w: %s is %d bytes", ErrTooLarge, name, f.UncompressedSize64)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", name, err)
		}
		defer rc.Close()
		data, err := io.ReadAll(io.LimitReader(rc, maxEntryBytes+1))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		if len(data) > maxEntryBytes {
			return nil, fmt.Errorf("%w: %s", ErrTooLarge, name)
		}
		return data, nil
	}
	return nil, nil
}

// readXML decodes the zip member name into v; it reports false when the
// member does not exist.
func readXML(zr *zip.Reader, name string, v any) (bool, error) {
	data, err := readMember(zr, name)
	if err != nil || data == nil {
		return false, err
	}
	if err := xml.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("parse %s: %w", name, err)
	}
	return true, nil
}

// zipMember is one file of a zip written by writeZip.
type zipMember struct {
	Name string
	Data []byte
}

// writeZip stores members uncompressed, in order, with a fixed timestamp.
// Stored (not deflated) entries keep the output independent of the Go
// version's compressor.
func writeZip(members []zipMember) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.Name, Method: zip.Store, Modified: zipEpoch})
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", m.Name, err)
		}
		if _, err := w.Write(m.Data); err != nil {
			return nil, fmt.Errorf("write %s: %w", m.Name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("close zip: %w", err)
	}
	return buf.Bytes(), nil
}

func openZip(data []byte, name string) (*zip.Reader, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	return zr, nil
}

// readBounded reads a whole file of at most maxEntryBytes.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEntryBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	if len(data) > maxEntryBytes {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrTooLarge, filepath.Base(path), maxEntryBytes)
	}
	return data, nil
}
