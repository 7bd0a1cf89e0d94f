package testenv

import "testing"

func TestRequired(t *testing.T) {
	t.Setenv(RequireEnv, "docker, spark")
	if !Required(Docker) || !Required(Spark) || Required(Python) {
		t.Fatalf("Required with %q: docker=%v spark=%v python=%v", "docker, spark", Required(Docker), Required(Spark), Required(Python))
	}
	t.Setenv(RequireEnv, "all")
	if !Required(Chromium) {
		t.Fatal("all must require chromium")
	}
	t.Setenv(RequireEnv, "")
	if Required(Docker) {
		t.Fatal("empty list requires nothing")
	}
}

func TestDataDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(DataEnv, dir)
	if got := DataDir(t); got != dir {
		t.Fatalf("DataDir = %q, want %q", got, dir)
	}
	t.Setenv(DataEnv, dir+"/absent")
	if got := DataDir(t); got != "" {
		t.Fatalf("DataDir with a missing folder = %q, want empty", got)
	}
}
