package lake

import (
	"github.com/klauspost/compress/zstd"
	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
)

// pageCodec is the zstd codec of every data file's pages. parquet-go's own
// codec keeps its encoders in a pool emptied by each garbage collection,
// and each encoder then allocates a new history of 8–16 MiB (the default
// 8 MiB window) for pages of 64 KiB (pageBytes). This one keeps a few
// encoders for the life of the process, with a window of 256 KiB and the
// history sized to it: the same output for pages up to 256 KiB (a page is
// one frame, compressed whole; only a single value longer than that makes
// a larger page), a fraction of the memory and allocation.
type pageCodec struct {
	encoders chan *zstd.Encoder
	decode   pqzstd.Codec // reading pages: parquet-go's codec
}

// pageWindow is the zstd window of page compression.
const pageWindow = 256 << 10

func newPageCodec() *pageCodec {
	return &pageCodec{encoders: make(chan *zstd.Encoder, 4)}
}

func (c *pageCodec) String() string                            { return "ZSTD" }
func (c *pageCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

func (c *pageCodec) Encode(dst, src []byte) ([]byte, error) {
	var e *zstd.Encoder
	select {
	case e = <-c.encoders:
	default:
		var err error
		e, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(pageWindow),
			zstd.WithLowerEncoderMem(true),
			zstd.WithZeroFrames(true),
			zstd.WithEncoderCRC(false),
		)
		if err != nil {
			return nil, err
		}
	}
	out := e.EncodeAll(src, dst[:0])
	select {
	case c.encoders <- e:
	default: // enough kept
	}
	return out, nil
}

func (c *pageCodec) Decode(dst, src []byte) ([]byte, error) { return c.decode.Decode(dst, src) }
