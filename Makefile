# trustlake — thin wrappers over go. DuckDB is linked through cgo (static
# library inside the duckdb-go module) and Arrow export needs the
# duckdb_arrow build tag, so every go command here sets both.
export CGO_ENABLED := 1
GOTAGS  := -tags duckdb_arrow
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -ldflags "-X main.version=$(VERSION)"

.PHONY: build docs test test-go test-short bench bench-trust bench-judge test-spark fuzz golden lint demo sandbox-images check-binary clean deps venv docker-start

# Python is for interoperability tests only (pyarrow/polars, inspect-ai,
# pyspark, nbconvert): pinned in python/requirements-*.txt, installed into
# .venv by `make venv` (which `make test` runs). Tests find it at .venv/bin/python.
VENV    := .venv
PYTHON  ?= python3
# gotestsum prints every skipped test with its reason in the summary.
GOTEST  := go tool gotestsum --format pkgname-and-test-fails --format-hide-empty-pkg --


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

# The one test command: installs (as root) and starts what the tests need,
# then runs every test with every part required (.ci/test says how).
test:
	bash .ci/test

# -count=1: never report a cached pass (an installed part changes nothing
# go test can see). The Spark tests (TestSpark*) run in test-spark, on one cluster.
# lake and ingest read through unsafe pointers; -race turns on checkptr, which
# fails a test on any pointer outside the memory it walks.
test-go: sandbox-images venv
	$(GOTEST) $(GOTAGS) -count=1 -timeout 60m -skip '^TestSpark' ./...
	$(GOTEST) $(GOTAGS) -count=1 -race ./lake ./ingest

# Spark parity tests: one standalone cluster (a master, two 1-core 1g
# workers and a Spark Connect server, separate JVMs from the pinned pyspark
# in .venv, Java 17) for every package, stopped afterwards; about 4 min.
test-spark: venv
	go run ./internal/sparktest/sparkcluster -- $(GOTEST) $(GOTAGS) -count=1 -timeout 30m -run '^TestSpark' ./queries/spark ./cmd/trustlake

# System packages the tests need, from Debian's packages (root); make test
# runs it itself.
deps:
	bash .ci/deps

# Start the Docker Engine when none answers (root), and wait for it.
docker-start:
	bash .ci/docker-start

venv: $(VENV)/.installed

$(VENV)/.installed: $(wildcard python/requirements-*.txt)
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check $(foreach f,$(wildcard python/requirements-*.txt),-r $(f))
	touch $@

test-short:
	go test $(GOTAGS) -short ./...

bench: build venv
	bash bench/run.sh

# Trust Layer: ingest vs audit of 100k generated τ-bench results (time, peak RSS).
bench-trust: build
	bash bench/trust.sh

# Judge runner: pack building, calls/s against a 50 ms endpoint, peak RSS.
bench-judge: build
	bash bench/judge.sh

fuzz:
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzDecodeVerdictLine -fuzztime=30s ./ingest
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzVerdictShortcutAgreesWithValidate -fuzztime=20s ./ingest
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzDecodeMeta -fuzztime=20s ./ingest
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzScanObjectMatchesEncodingJSON -fuzztime=30s ./ingest
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzDecodeGroundTruth -fuzztime=20s ./ingest
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzDecodeResults -fuzztime=20s ./ingest
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzDecodeTauBench -fuzztime=20s ./ingest
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzLabelsCSV -fuzztime=20s ./ingest
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzRepeatedKey -fuzztime=10s ./ingest
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzPartitionDir -fuzztime=15s ./lake
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzExtractSnapshot -fuzztime=30s ./sandbox
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzParseReply -fuzztime=20s ./judge
	go test $(GOTAGS) -run='^$$' -fuzz=FuzzPrepareImage -fuzztime=20s ./judge

# Every golden file: ingest's bad-input .stderr files, the files cmp compares
# in cmd/trustlake's scripts, the CLI output the examples' READMEs quote (on
# the shared data), and sandbox's fuzz seed archives.
golden:
	go test $(GOTAGS) -count=1 ./ingest ./cmd/trustlake -update
	go test $(GOTAGS) -count=1 ./sandbox -run '^TestFuzzSeeds$$' -update

# Generated documentation: docs/cli.md from the command definitions
# (TestCLIReference fails when it is stale), and the README's picture of the
# demo's report, taken by the real Chromium.
docs: demo
	go test $(GOTAGS) -count=1 -run '^TestCLIReference$$' ./cmd/trustlake -update
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
		--screenshot=docs/img/report.png file://$(CURDIR)/demo/report/report.html 2>/dev/null

lint:
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"
	go vet $(GOTAGS) ./...
	go mod tidy -diff

# The demo's simulated judge (exec backend): a deterministic rule, not a model.
bin/trustlake-simjudge: FORCE
	go build -o bin/trustlake-simjudge ./examples/demo/simjudge

# The main job on an embedded example: generate → ingest → SQL answers.
demo: bin/trustlake check-binary bin/trustlake-simjudge
	bash examples/demo/run.sh

clean:
	rm -rf bin demo

FORCE:
