# masrl: the generator behind the awesome list of the survey on RL for
# LLM-based multi-agent systems. `make site` builds public/ from the corpus;
# `make test` runs every test. Both install what they need.

CORPUS ?= ../shared/corpus
GO     ?= go
BIN    := bin/masrl

.PHONY: all site test bench bench-quick bench-peers serve build clean

all: site

build: $(BIN)

$(BIN): FORCE
	$(GO) build -o $(BIN) ./cmd/masrl

FORCE:

# BASE_URL is where the site is published; feeds and the sitemap use it.
BASE_URL ?= http://127.0.0.1:8080/
ADDR     ?= 127.0.0.1:8080

site: $(BIN)
	./$(BIN) build --corpus $(CORPUS) --out public --base-url $(BASE_URL)

serve: $(BIN)
	./$(BIN) serve --corpus $(CORPUS) --out public --addr $(ADDR) --templates templates --data data

test:
	$(GO) vet ./...
	MASRL_CORPUS=$(abspath $(CORPUS)) $(GO) test ./...
	$(GO) run ./cmd/masrl readme README.md --check --corpus $(CORPUS)

clean:
	rm -rf bin public

# make bench measures masrl against the tools users would pick instead and
# rewrites the tables in BENCHMARKS.md; make bench-quick runs smaller sizes
# and fewer runs and only prints. Neither is part of make test.
bench: bench-peers
	$(GO) run ./bench/cmd/benchrun -corpus $(CORPUS) -md BENCHMARKS.md

bench-quick: bench-peers
	$(GO) run ./bench/cmd/benchrun -corpus $(CORPUS) -quick

# bench-peers installs what the benchmarks compare with: Debian's hugo and
# GNU time (one apt-get update, only when one is missing) and Ajv from
# bench/trace's lock file.
bench-peers:
	@missing=""; command -v hugo >/dev/null 2>&1 || missing="$$missing hugo"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	if [ -n "$$missing" ]; then apt-get update && apt-get install -y $$missing; fi
	@if [ -f bench/trace/package-lock.json ]; then cd bench/trace && npm ci --no-audit --no-fund; fi

# Orchestration traces: the WebAssembly validator for the site (bin/), and
# the 1M-event benchmark against ajv and a Python validator
# (bench/trace/RESULTS.md). TRACE_EVENTS and TRACE_FILE choose the input.
TRACE_EVENTS ?= 1000000
TRACE_FILE   ?= /tmp/masrl-trace-$(TRACE_EVENTS).json

.PHONY: wasm bench-trace trace-file

wasm:
	@mkdir -p bin
	GOOS=js GOARCH=wasm $(GO) build -o bin/masrl.wasm ./cmd/masrl-wasm
	@goroot=$$($(GO) env GOROOT); \
	if [ -f $$goroot/lib/wasm/wasm_exec.js ]; then cp $$goroot/lib/wasm/wasm_exec.js bin/; \
	else cp $$goroot/misc/wasm/wasm_exec.js bin/; fi

trace-file:
	@[ -s $(TRACE_FILE) ] || $(GO) run ./cmd/synth trace -events $(TRACE_EVENTS) -seed 1 > $(TRACE_FILE)

bench-trace: build trace-file
	$(GO) test -run '^$$' -bench . -benchmem ./schema
	cd bench/trace && npm ci --no-audit --no-fund --silent
	bench/trace/run.sh $(TRACE_FILE) $(abspath $(CORPUS))/reference/trace_schema.json
