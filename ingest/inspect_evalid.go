package ingest

import (
	"encoding/binary"
	"math/big"
	"math/bits"
	"slices"
)

// evalID is the run's eval_id. Logs written before inspect-ai recorded one
// (0.3.90 has none) get the id inspect-ai's reader gives them, so episode
// ids match what inspect-ai shows: BLAKE2s with a 16-byte digest of
// run_id + task_id + created, in base 57 (shortuuid's alphabet), 22
// characters (inspect_ai/_util/hash.py base57_id_hash).
func (e *inspectEval) evalID() string {
	if e.EvalID != "" {
		return e.EvalID
	}
	sum := blake2s128([]byte(e.RunID + e.TaskID + e.Created))
	n := new(big.Int).SetBytes(sum[:])
	const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	var out []byte
	base, rem := big.NewInt(57), new(big.Int)
	for n.Sign() > 0 {
		n.DivMod(n, base, rem)
		out = append(out, alphabet[rem.Int64()])
	}
	for len(out) < 22 {
		out = append(out, alphabet[0])
	}
	slices.Reverse(out)
	return string(out[len(out)-22:])
}

var blake2sIV = [8]uint32{0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19}

var blake2sSigma = [10][16]byte{
	{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
	{14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
	{11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
	{7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
	{9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
	{2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
	{12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
	{13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
	{6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
	{10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
}

// blake2s128 is unkeyed BLAKE2s (RFC 7693) with a 16-byte digest, as
// Python's hashlib.blake2s(digest_size=16). The Go standard library has no
// BLAKE2s, and golang.org/x/crypto's 128-bit form requires a key.
func blake2s128(msg []byte) [16]byte {
	h := blake2sIV
	h[0] ^= 0x01010000 ^ 16 // fanout 1, depth 1, no key, 16-byte digest
	var t uint64
	for {
		var block [64]byte
		n := copy(block[:], msg)
		msg = msg[n:]
		t += uint64(n)
		last := len(msg) == 0
		var m [16]uint32
		for i := range m {
			m[i] = binary.LittleEndian.Uint32(block[4*i:])
		}
		v := [16]uint32{h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
			blake2sIV[0], blake2sIV[1], blake2sIV[2], blake2sIV[3],
			blake2sIV[4] ^ uint32(t), blake2sIV[5] ^ uint32(t>>32), blake2sIV[6], blake2sIV[7]}
		if last {
			v[14] = ^v[14]
		}
		g := func(a, b, c, d int, x, y uint32) {
			v[a] += v[b] + x
			v[d] = bits.RotateLeft32(v[d]^v[a], -16)
			v[c] += v[d]
			v[b] = bits.RotateLeft32(v[b]^v[c], -12)
			v[a] += v[b] + y
			v[d] = bits.RotateLeft32(v[d]^v[a], -8)
			v[c] += v[d]
			v[b] = bits.RotateLeft32(v[b]^v[c], -7)
		}
		for _, s := range blake2sSigma {
			g(0, 4, 8, 12, m[s[0]], m[s[1]])
			g(1, 5, 9, 13, m[s[2]], m[s[3]])
			g(2, 6, 10, 14, m[s[4]], m[s[5]])
			g(3, 7, 11, 15, m[s[6]], m[s[7]])
			g(0, 5, 10, 15, m[s[8]], m[s[9]])
			g(1, 6, 11, 12, m[s[10]], m[s[11]])
			g(2, 7, 8, 13, m[s[12]], m[s[13]])
			g(3, 4, 9, 14, m[s[14]], m[s[15]])
		}
		for i := range h {
			h[i] ^= v[i] ^ v[i+8]
		}
		if last {
			break
		}
	}
	var out [16]byte
	for i := range 4 {
		binary.LittleEndian.PutUint32(out[4*i:], h[i])
	}
	return out
}
