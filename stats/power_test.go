package stats

import (
	"math"
	"testing"
)

func TestPairedPowerSimulationMatchesExact(t *testing.T) {
	cases := []struct {
		name           string
		fprA, fprB     float64
		n              int
		discordance, a float64
	}{
		{"minimal discordance", 0.2, 0.1, 200, 0, 0.05},
		{"some discordance", 0.2, 0.15, 300, 0.15, 0.05},
		{"small n", 0.3, 0.2, 60, 0.2, 0.05},
		{"no difference", 0.2, 0.2, 150, 0.1, 0.05},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			exact, err := PairedPowerExact(nil, c.fprA, c.fprB, c.n, c.discordance, c.a)
			if err != nil {
				t.Fatal(err)
			}
			const sims = 4000
			sim, err := PairedPower(nil, c.fprA, c.fprB, c.n, c.discordance, c.a, sims, 11)
			if err != nil {
				t.Fatal(err)
			}
			se := math.Sqrt(math.Max(exact*(1-exact), 0.01) / sims)
			if math.Abs(sim-exact) > 4*se {
				t.Errorf("simulated power %v, exact %v (±%v)", sim, exact, 4*se)
			}
			again, _ := PairedPower(nil, c.fprA, c.fprB, c.n, c.discordance, c.a, sims, 11)
			if again != sim {
				t.Errorf("same seed gave %v then %v", sim, again)
			}
		})
	}
}

func TestPairedPowerProperties(t *testing.T) {
	// The exact test is conservative: under no difference it rejects at most
	// alpha of the time.
	if p, _ := PairedPowerExact(nil, 0.2, 0.2, 400, 0.1, 0.05); p > 0.05 {
		t.Errorf("size under the null = %v > 0.05", p)
	}
	// Power grows with n.
	prev := 0.0
	for _, n := range []int{50, 100, 200, 400, 800} {
		p, err := PairedPowerExact(nil, 0.2, 0.15, n, 0.1, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if p < prev {
			t.Errorf("power at n=%d is %v < %v at a smaller n", n, p, prev)
		}
		prev = p
	}
	if prev < 0.9 {
		t.Errorf("power at n=800 for a 5-point difference with 10%% discordance = %v, want > 0.9", prev)
	}
	// discordance 0 means |fprA − fprB|.
	a, _ := PairedPowerExact(nil, 0.25, 0.1, 100, 0, 0.05)
	b, _ := PairedPowerExact(nil, 0.25, 0.1, 100, 0.15, 0.05)
	if a != b {
		t.Errorf("discordance 0 gave %v, explicit 0.15 gave %v", a, b)
	}
	// More discordance for the same difference means less power.
	if c, _ := PairedPowerExact(nil, 0.25, 0.1, 100, 0.3, 0.05); c >= a {
		t.Errorf("power with discordance 0.3 = %v, not below %v", c, a)
	}
}

func TestPairedPowerErrors(t *testing.T) {
	cases := []struct {
		name               string
		fprA, fprB         float64
		n                  int
		discordance, alpha float64
		sims               int
	}{
		{"discordance below difference", 0.3, 0.1, 100, 0.1, 0.05, 100},
		{"discordance above marginals", 0.1, 0.05, 100, 0.2, 0.05, 100},
		{"rate above one", 1.2, 0.1, 100, 0, 0.05, 100},
		{"no negatives", 0.2, 0.1, 0, 0, 0.05, 100},
		{"alpha zero", 0.2, 0.1, 100, 0, 0, 100},
		{"negative sims", 0.2, 0.1, 100, 0, 0.05, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := PairedPower(nil, c.fprA, c.fprB, c.n, c.discordance, c.alpha, c.sims, 1); err == nil {
				t.Error("PairedPower: no error")
			}
			if c.sims > 0 {
				if _, err := PairedPowerExact(nil, c.fprA, c.fprB, c.n, c.discordance, c.alpha); err == nil {
					t.Error("PairedPowerExact: no error")
				}
			}
		})
	}
}
