package judge

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
)

// pngEncoder favours speed: packs are rebuilt far more often than read by eye.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// maxImagePixels caps the pixels of a screenshot (width × height, read from
// its header before decoding): a small file can claim a huge canvas.
const maxImagePixels = 64 << 20

// prepareImage decodes data as a PNG and returns a fresh encoding of its
// pixels, with its longest side at most maxSide (box-filtered down when
// larger). The source bytes never reach a judge: text chunks (tEXt, iTXt,
// zTXt), EXIF, any ancillary chunk and bytes after IEND are dropped; the
// output holds IHDR, PLTE and tRNS when the pixels need them, IDAT and IEND.
func prepareImage(data []byte, maxSide int) ([]byte, int, int, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, fmt.Errorf("not a readable PNG: %v", err)
	}
	if w, h := cfg.Width, cfg.Height; w <= 0 || h <= 0 {
		return nil, 0, 0, fmt.Errorf("empty PNG (%dx%d)", w, h)
	} else if int64(w)*int64(h) > maxImagePixels {
		return nil, 0, 0, fmt.Errorf("PNG of %dx%d pixels is over the cap of %d pixels", w, h, maxImagePixels)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, fmt.Errorf("not a readable PNG: %v", err)
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if w > maxSide || h > maxSide {
		dw, dh = maxSide, maxSide
		if w >= h {
			dh = max(1, (h*maxSide+w/2)/w)
		} else {
			dw = max(1, (w*maxSide+h/2)/h)
		}
		img = downsample(img, dw, dh)
	}
	var out bytes.Buffer
	if err := pngEncoder.Encode(&out, img); err != nil {
		return nil, 0, 0, fmt.Errorf("encode PNG: %v", err)
	}
	return out.Bytes(), dw, dh, nil
}

// downsample averages each destination pixel's box of source pixels
// (area filter), in non-premultiplied RGBA.
func downsample(src image.Image, dw, dh int) *image.NRGBA {
	sb := src.Bounds()
	var rgba *image.NRGBA
	switch s := src.(type) {
	case *image.NRGBA:
		if sb.Min == (image.Point{}) {
			rgba = s
		}
	case *image.RGBA: // opaque screenshots decode as RGBA: same bytes as NRGBA when alpha is 255
		if sb.Min == (image.Point{}) && s.Opaque() {
			rgba = &image.NRGBA{Pix: s.Pix, Stride: s.Stride, Rect: s.Rect}
		}
	}
	if rgba == nil {
		rgba = image.NewNRGBA(image.Rect(0, 0, sb.Dx(), sb.Dy()))
		draw.Draw(rgba, rgba.Bounds(), src, sb.Min, draw.Src)
	}
	sw, sh := rgba.Rect.Dx(), rgba.Rect.Dy()
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		y0, y1 := y*sh/dh, max((y+1)*sh/dh, y*sh/dh+1)
		for x := 0; x < dw; x++ {
			x0, x1 := x*sw/dw, max((x+1)*sw/dw, x*sw/dw+1)
			var r, g, bl, a, n uint32
			for sy := y0; sy < y1; sy++ {
				row := rgba.Pix[sy*rgba.Stride:]
				for sx := x0; sx < x1; sx++ {
					p := row[sx*4 : sx*4+4]
					r += uint32(p[0])
					g += uint32(p[1])
					bl += uint32(p[2])
					a += uint32(p[3])
					n++
				}
			}
			o := y*dst.Stride + x*4
			dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = uint8((r+n/2)/n), uint8((g+n/2)/n), uint8((bl+n/2)/n), uint8((a+n/2)/n)
		}
	}
	return dst
}
