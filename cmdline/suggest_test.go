package cmdline

import "testing"

func TestClosest(t *testing.T) {
	names := []string{"ingest", "sql", "export", "lake", "metrics", "compare", "check"}
	cases := []struct{ in, want string }{
		{"sqll", "sql"}, {"ingets", "ingest"}, {"metric", "metrics"}, {"chek", "check"},
		{"comp", "compare"}, {"xyzzy", ""}, {"q", ""},
	}
	for _, c := range cases {
		if got := Closest(c.in, names); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
