package sim

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"

	"github.com/trustlake/trustlake/schema"
)

// Screenshot size: small enough to keep generated folders light, large
// enough for packs to exercise downsampling (--max-image-side below 160).
const screenW, screenH = 160, 100

var (
	titleBar = color.RGBA{0x2b, 0x4c, 0x7e, 0xff}
	gridLine = color.RGBA{0xc8, 0xc8, 0xc8, 0xff}
	cellFill = color.RGBA{0xff, 0xff, 0xff, 0xff}
	cursor   = color.RGBA{0x3c, 0x8d, 0xe0, 0xff}
	typed    = color.RGBA{0x20, 0x20, 0x20, 0xff}
)

var pngEnc = png.Encoder{CompressionLevel: png.DefaultCompression}

// instruction is task t's text (what the judge is asked about).
func instruction(t int) string {
	return fmt.Sprintf("In the spreadsheet budget_%04d.ods, set cell D%d to %d and save the file.", t+1, 2+t%20, 100*(t%50+1))
}

// renderScreen draws step s of episode e as a small spreadsheet window:
// a title bar (with an unsaved marker on an uncommitted episode's last
// screens), a grid, the cursor cell moving with the steps, the cells
// filled so far, and an error dialog on an aborted episode's last step.
func renderScreen(e *episode, s int) ([]byte, error) {
	unsaved := e.category == schema.CatUncommitted && s >= e.nSteps-1
	return drawScreen(unsaved, e.category == schema.CatAbort && s == e.nSteps, func(fill fillFunc) {
		const cols, rows, cw, ch = 8, 8, 20, 11
		for c := 0; c <= cols; c++ {
			fill(c*cw, 12, c*cw+1, screenH, gridLine)
		}
		for r := 0; r <= rows; r++ {
			fill(0, 12+r*ch, screenW, 12+r*ch+1, gridLine)
		}
		for i := 1; i <= s; i++ { // cells written so far
			cell := (e.task*7 + e.k*3 + i*5) % (cols * rows)
			if i%3 == 0 {
				x, y := cell%cols*cw, 12+cell/cols*ch
				fill(x+3, y+4, x+cw-3, y+7, typed)
			}
		}
		cur := (e.task + s) % (cols * rows)
		x, y := cur%cols*cw, 12+cur/cols*ch
		fill(x+1, y+1, x+cw, y+2, cursor)
		fill(x+1, y+ch-1, x+cw, y+ch, cursor)
	})
}

// fillFunc fills a rectangle of a screen, clipped to it.
type fillFunc func(x0, y0, x1, y1 int, c color.RGBA)

// drawScreen draws a window (white, with a title bar), then draw's content,
// then the unsaved marker and the error dialog when asked, as a PNG.
func drawScreen(unsaved, dialog bool, draw func(fillFunc)) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, screenW, screenH))
	fill := func(x0, y0, x1, y1 int, c color.RGBA) {
		for y := max(y0, 0); y < min(y1, screenH); y++ {
			for x := max(x0, 0); x < min(x1, screenW); x++ {
				img.SetRGBA(x, y, c)
			}
		}
	}
	fill(0, 0, screenW, screenH, cellFill)
	fill(0, 0, screenW, 12, titleBar)
	draw(fill)
	if unsaved {
		fill(screenW-10, 3, screenW-4, 9, ScreenUnsaved)
	}
	if dialog {
		fill(30, 35, 130, 70, ScreenDialog)
	}
	var b bytes.Buffer
	if err := pngEnc.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("encode screen png: %w", err)
	}
	return b.Bytes(), nil
}
