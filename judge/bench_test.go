package judge

import "testing"

// BenchmarkBuildE2LastK builds E2-lastk packs of four 160×100 screenshots,
// each downsampled to 128 px (decode, resize, re-encode), and encodes them.
func BenchmarkBuildE2LastK(b *testing.B) {
	src := screenEpisode(b, b.TempDir(), "ep1", 6, 160, 100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := buildPack(src, E2LastK, PackOptions{MaxImageSide: 128}, imageCache{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildE1FinalFullSize builds E1-final packs of one 1280×800
// screenshot already within the max side: decoded and encoded afresh.
func BenchmarkBuildE1FinalFullSize(b *testing.B) {
	src := screenEpisode(b, b.TempDir(), "ep1", 1, 1280, 800)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := buildPack(src, E1Final, PackOptions{}, imageCache{}); err != nil {
			b.Fatal(err)
		}
	}
}
