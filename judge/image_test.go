package judge

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pngChunk encodes one PNG chunk: length, type, data, CRC.
func pngChunk(typ string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(typ), data...)))
}

// withMetadata inserts text, EXIF and private chunks before IEND and
// appends bytes after it: every place a PNG can carry words besides pixels.
func withMetadata(t testing.TB, data []byte, secret string) []byte {
	t.Helper()
	iend := bytes.LastIndex(data, []byte("IEND")) - 4
	if iend < 8 {
		t.Fatal("no IEND in the test PNG")
	}
	var extra []byte
	extra = append(extra, pngChunk("tEXt", []byte("Comment\x00"+secret))...)
	extra = append(extra, pngChunk("iTXt", []byte("Description\x00\x00\x00en\x00\x00"+secret))...)
	extra = append(extra, pngChunk("zTXt", []byte("Note\x00\x00x\x9c\x03\x00\x00\x00\x00\x01"))...) // empty zlib stream
	extra = append(extra, pngChunk("eXIf", []byte("MM\x00*\x00\x00\x00\x08"+secret))...)
	extra = append(extra, pngChunk("prIv", []byte(secret))...)
	out := slices.Concat(data[:iend], extra, data[iend:], []byte(secret))
	if _, err := png.Decode(bytes.NewReader(out)); err != nil {
		t.Fatalf("the test PNG with metadata does not decode: %v", err)
	}
	return out
}

// chunkTypes lists a PNG's chunk types in order and the bytes after IEND.
func chunkTypes(data []byte) ([]string, int, error) {
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		return nil, 0, errors.New("no PNG signature")
	}
	var types []string
	for i := 8; i+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[i:]))
		typ := string(data[i+4 : i+8])
		types = append(types, typ)
		i += 12 + n
		if typ == "IEND" {
			return types, len(data) - i, nil
		}
	}
	return types, 0, errors.New("no IEND")
}

// onlyPixelChunks reports a chunk other than IHDR, PLTE, tRNS, IDAT, IEND
// or bytes after IEND.
func onlyPixelChunks(data []byte) error {
	types, after, err := chunkTypes(data)
	if err != nil {
		return err
	}
	for _, typ := range types {
		switch typ {
		case "IHDR", "PLTE", "tRNS", "IDAT", "IEND":
		default:
			return errors.New("chunk " + typ + " kept")
		}
	}
	if after != 0 {
		return errors.New("bytes after IEND kept")
	}
	return nil
}

// samePixels compares two images pixel by pixel in 16-bit RGBA.
func samePixels(a, b image.Image) bool {
	if a.Bounds().Size() != b.Bounds().Size() {
		return false
	}
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}

// TestImagesReencodedFromPixels: a screenshot already within the max side
// reaches the pack as a fresh encoding of its pixels; its text chunks, EXIF,
// private chunks and trailing bytes do not (issue 24 item 9).
func TestImagesReencodedFromPixels(t *testing.T) {
	const secret = "F-UNCOMMITTED: kept old value 17"
	paletted := image.NewPaletted(image.Rect(0, 0, 20, 10), color.Palette{color.NRGBA{0, 0, 0, 0}, color.NRGBA{200, 10, 10, 128}, color.White})
	for i := range paletted.Pix {
		paletted.Pix[i] = uint8(i % 3)
	}
	var pal bytes.Buffer
	if err := png.Encode(&pal, paletted); err != nil {
		t.Fatal(err)
	}
	for name, orig := range map[string][]byte{"rgb": testPNG(t, 40, 30, 2), "paletted": pal.Bytes(), "large": testPNG(t, 100, 50, 3)} {
		t.Run(name, func(t *testing.T) {
			src := screenEpisode(t, t.TempDir(), "ep1", 2, 40, 30)
			dirty := withMetadata(t, orig, secret)
			if err := os.WriteFile(filepath.Join(src.Dir, "screens/002.png"), dirty, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, cond := range Conditions {
				p, err := Build(src, cond, PackOptions{MaxImageSide: 64})
				if err != nil {
					t.Fatal(err)
				}
				im := p.Images[len(p.Images)-1]
				if err := onlyPixelChunks(im.Data); err != nil {
					t.Errorf("%s: %v", cond, err)
				}
				enc, _ := p.Encode()
				if bytes.Contains(im.Data, []byte("F-UNCOMMITTED")) || strings.Contains(string(enc), "F-UNCOMMITTED") {
					t.Errorf("%s: the PNG's metadata reached the pack", cond)
				}
				if im.SHA256 != SHA256Hex(im.Data) {
					t.Errorf("%s: image sha256 is not that of the bytes sent", cond)
				}
				if name == "large" {
					continue // downsampled: other pixels by design
				}
				want, _ := png.Decode(bytes.NewReader(orig))
				got, err := png.Decode(bytes.NewReader(im.Data))
				if err != nil || !samePixels(want, got) {
					t.Errorf("%s: re-encoded pixels differ (%v)", cond, err)
				}
			}
		})
	}
}

// TestImagePixelCap: a PNG header claiming more than maxImagePixels is
// refused before any decoding allocates its canvas.
func TestImagePixelCap(t *testing.T) {
	ihdr := binary.BigEndian.AppendUint32(nil, 1<<16)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 1<<16)
	ihdr = append(ihdr, 8, 2, 0, 0, 0)
	data := slices.Concat([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr), pngChunk("IEND", nil))
	if _, _, _, err := prepareImage(data, 1280); err == nil || !strings.Contains(err.Error(), "over the cap") {
		t.Errorf("65536x65536 PNG: err %v, want over the cap", err)
	}
}

// FuzzPrepareImage: whatever bytes come in, a PNG that decodes comes out as
// one holding only IHDR/PLTE/tRNS/IDAT/IEND, decoding to the same pixels
// (below the max side); anything else is an error.
func FuzzPrepareImage(f *testing.F) {
	f.Add(testPNG(f, 3, 2, 1))
	f.Add(withMetadata(f, testPNG(f, 5, 4, 7), "F-UNCOMMITTED secret"))
	gray := image.NewGray16(image.Rect(0, 0, 3, 3))
	gray.Pix[0], gray.Pix[5] = 0xff, 0x12
	var b bytes.Buffer
	png.Encode(&b, gray)
	f.Add(b.Bytes())
	b.Reset()
	png.Encode(&b, image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.NRGBA{1, 2, 3, 4}, color.Black}))
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, cerr := png.DecodeConfig(bytes.NewReader(data))
		if cerr == nil && cfg.Width*cfg.Height > 1<<16 {
			return // large canvases cost time, not coverage
		}
		out, w, h, err := prepareImage(data, 1<<15)
		want, derr := png.Decode(bytes.NewReader(data))
		if derr != nil || want.Bounds().Empty() {
			if err == nil {
				t.Fatalf("an unreadable or empty PNG was accepted (%v)", derr)
			}
			return
		}
		if err != nil {
			t.Fatalf("a readable PNG was refused: %v", err)
		}
		if err := onlyPixelChunks(out); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("output does not decode: %v", err)
		}
		if w != want.Bounds().Dx() || h != want.Bounds().Dy() || !samePixels(want, got) {
			t.Fatal("output pixels differ from the input's")
		}
	})
}
