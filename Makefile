# masrl: the generator behind the awesome list of the survey on RL for
# LLM-based multi-agent systems. `make site` builds public/ from the corpus;
# `make test` runs every test. Both install what they need.

CORPUS ?= ../shared/corpus
GO     ?= go
BIN    := bin/masrl

.PHONY: all site test bench serve build clean chromium browsertest

all: site

build: $(BIN)

$(BIN): FORCE
	$(GO) build -o $(BIN) ./cmd/masrl

FORCE:

# BASE_URL is where the site is published; feeds and the sitemap use it.
BASE_URL ?= http://127.0.0.1:8080/
ADDR     ?= 127.0.0.1:8080

# The site publishes echarts from node_modules (see DEVELOPERS.md).
site: $(BIN) node_modules
	./$(BIN) build --corpus $(CORPUS) --out public --base-url $(BASE_URL)

serve: $(BIN) node_modules
	./$(BIN) serve --corpus $(CORPUS) --out public --addr $(ADDR) --templates templates --data data

# test builds the site and installs Chromium first: the browser tests in
# browsertest/ load public/ and, with MASRL_BROWSER set, fail rather than
# skip when anything they need is missing.
test: site chromium
	$(GO) vet ./...
	MASRL_CORPUS=$(abspath $(CORPUS)) MASRL_BROWSER=1 $(GO) test ./...
	$(GO) run ./cmd/masrl readme README.md --check --corpus $(CORPUS)

# node_modules holds the front-end packages the site serves from itself
# (echarts) and the browser tests inject (axe-core), at the versions
# package-lock.json pins. npm ci reinstalls only when the lock changed.
node_modules: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch node_modules

# chromium installs Debian's Chromium for the browser tests when missing
# (the tests run as root on CI). See DEVELOPERS.md for the flags it runs with.
chromium:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

# browsertest runs only the browser tests, verbosely, on a fresh build.
browsertest: site chromium
	MASRL_CORPUS=$(abspath $(CORPUS)) MASRL_BROWSER=1 $(GO) test -count=1 -v ./browsertest/

clean:
	rm -rf bin public browsertest/testdata/screenshots

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
