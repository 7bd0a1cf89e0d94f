# trustlake — thin wrappers over go. DuckDB is linked through cgo (static
# library inside the duckdb-go module) and Arrow export needs the
# duckdb_arrow build tag, so every go command here sets both.
export CGO_ENABLED := 1
GOTAGS  := -tags duckdb_arrow
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -ldflags "-X main.version=$(VERSION)"

.PHONY: build test test-short bench bench-trust fuzz golden lint demo sandbox-images check-binary clean

build: bin/trustlake check-binary

bin/trustlake: FORCE
	go build $(GOTAGS) $(LDFLAGS) -o bin/trustlake ./cmd/trustlake

# The verifier binary runs inside a FROM scratch image: static, no cgo.
check-binary:
	CGO_ENABLED=0 go build -trimpath -o bin/trustlake-check ./cmd/trustlake-check

# Images for the sandbox, built locally (no registry): trustlake-check
# (FROM scratch + the static checker) and trustlake-python (debootstrap).
sandbox-images: check-binary
	bash images/build.sh

test: sandbox-images
	go test $(GOTAGS) -timeout 60m ./...

test-short:
	go test $(GOTAGS) -short ./...

bench: build
	bash bench/run.sh

# Trust Layer: ingest vs audit of 100k generated τ-bench results (time, peak RSS).
bench-trust: build
	bash bench/trust.sh

fuzz:
	go test -run='^$$' -fuzz=FuzzDecodeVerdictLine -fuzztime=30s ./ingest
	go test -run='^$$' -fuzz=FuzzDecodeMeta -fuzztime=20s ./ingest
	go test -run='^$$' -fuzz=FuzzParsePartitionDir -fuzztime=15s ./lake
	go test -run='^$$' -fuzz=FuzzExtractSnapshot -fuzztime=30s ./sandbox

golden:
	go test $(GOTAGS) ./ingest ./cmd/trustlake -update

lint:
	test -z "$$(gofmt -l .)" && go vet $(GOTAGS) ./...

# The main job on an embedded example: generate → ingest → SQL answers.
demo: bin/trustlake
	bash examples/demo/run.sh

clean:
	rm -rf bin demo

FORCE:
