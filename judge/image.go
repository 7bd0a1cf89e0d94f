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

// prepareImage checks that data is a readable PNG and returns it with its
// longest side at most maxSide: unchanged bytes when it already fits, else
// box-filtered down and re-encoded.
func prepareImage(data []byte, maxSide int) ([]byte, int, int, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, fmt.Errorf("not a readable PNG: %v", err)
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return nil, 0, 0, fmt.Errorf("empty PNG (%dx%d)", w, h)
	}
	if w <= maxSide && h <= maxSide {
		return data, w, h, nil
	}
	dw, dh := maxSide, maxSide
	if w >= h {
		dh = max(1, (h*maxSide+w/2)/w)
	} else {
		dw = max(1, (w*maxSide+h/2)/h)
	}
	small := downsample(img, dw, dh)
	var out bytes.Buffer
	if err := pngEncoder.Encode(&out, small); err != nil {
		return nil, 0, 0, fmt.Errorf("encode downsampled PNG: %v", err)
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
