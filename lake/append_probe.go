package lake

import "unsafe"

// probe is what Probe found out about one row ahead of its Add.
type probe[T any] struct {
	row   unsafe.Pointer
	key   [2]uint64
	ps    *partState[T]
	maybe bool // the partition's filter holds the key: look it up
}

// Probe prepares the Add of rows, which the caller is about to add in this
// order: it hashes their keys, finds their partitions, and asks each
// partition's filter about all of them in one loop, so the filter reads
// (mostly cache misses, one per row, for rows of many partitions) overlap
// instead of waiting one by one. Calling it is optional; an Add of another
// row than the next probed one drops what Probe prepared. rows must stay
// in place until added.
func (w *Writer[T]) Probe(rows []T) {
	w.probes, w.nprobe = w.probes[:0], 0
	for i := range rows {
		p := unsafe.Pointer(&rows[i])
		var key [2]uint64
		key, w.scratch = w.rt.keyHash(w.scratch, p)
		ps, err := w.part(p)
		if err != nil {
			break // Add meets the error again
		}
		w.probes = append(w.probes, probe[T]{row: p, key: key, ps: ps})
	}
	for i := range w.probes {
		pr := &w.probes[i]
		pr.maybe = pr.ps.index.MayHold(pr.key)
	}
}

// probed returns the key, the partition and whether the partition may
// hold the key of the row at p, from Probe or computed now.
func (w *Writer[T]) probed(p unsafe.Pointer) ([2]uint64, *partState[T], bool, error) {
	if w.nprobe < len(w.probes) {
		if pr := w.probes[w.nprobe]; pr.row == p {
			w.nprobe++
			return pr.key, pr.ps, pr.maybe, nil
		}
		w.probes, w.nprobe = w.probes[:0], 0
	}
	var key [2]uint64
	key, w.scratch = w.rt.keyHash(w.scratch, p)
	ps, err := w.part(p)
	if err != nil {
		return key, nil, false, err
	}
	return key, ps, ps.index.MayHold(key), nil
}
