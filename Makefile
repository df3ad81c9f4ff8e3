# masrl: the generator behind the awesome list of the survey on RL for
# LLM-based multi-agent systems. `make site` builds public/ from the corpus;
# `make test` runs every test. Both install what they need.

CORPUS ?= ../shared/corpus
GO     ?= go
BIN    := bin/masrl

.PHONY: all site test bench serve build clean

all: site

build: $(BIN)

$(BIN): FORCE
	$(GO) build -o $(BIN) ./cmd/masrl

FORCE:

test:
	$(GO) vet ./...
	MASRL_CORPUS=$(abspath $(CORPUS)) $(GO) test ./...

clean:
	rm -rf bin public

# Orchestration traces: the WebAssembly validator for the site (bin/), and
# the 1M-event benchmark against ajv and a Python validator
# (bench/trace/RESULTS.md). TRACE_EVENTS and TRACE_FILE choose the input.
TRACE_EVENTS ?= 1000000
TRACE_FILE   ?= /tmp/masrl-trace-$(TRACE_EVENTS).json

.PHONY: wasm wasm-smoke bench-trace trace-file

wasm:
	@mkdir -p bin
	GOOS=js GOARCH=wasm $(GO) build -o bin/masrl.wasm ./cmd/masrl-wasm
	@goroot=$$($(GO) env GOROOT); \
	if [ -f $$goroot/lib/wasm/wasm_exec.js ]; then cp $$goroot/lib/wasm/wasm_exec.js bin/; \
	else cp $$goroot/misc/wasm/wasm_exec.js bin/; fi

# Runs schema/validator/validator.js in Node (stub DOM) against bin/masrl.wasm.
wasm-smoke: wasm
	node schema/validator/smoke.cjs bin schema/testdata/example.json schema/testdata/invalid/event-bad-type.json

trace-file:
	@[ -s $(TRACE_FILE) ] || $(GO) run ./cmd/synth trace -events $(TRACE_EVENTS) -seed 1 > $(TRACE_FILE)

bench-trace: build trace-file
	$(GO) test -run '^$$' -bench . -benchmem ./schema
	cd bench/trace && npm ci --no-audit --no-fund --silent
	bench/trace/run.sh $(TRACE_FILE) $(abspath $(CORPUS))/reference/trace_schema.json
