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

# BASE_URL is where the site is published; feeds and the sitemap use it.
BASE_URL ?= http://127.0.0.1:8080/
ADDR     ?= 127.0.0.1:8080

site: $(BIN)
	./$(BIN) build --corpus $(CORPUS) --out public --base-url $(BASE_URL)

serve: $(BIN)
	./$(BIN) serve --corpus $(CORPUS) --out public --addr $(ADDR)

test:
	$(GO) vet ./...
	MASRL_CORPUS=$(abspath $(CORPUS)) $(GO) test ./...
	$(GO) run ./cmd/masrl readme README.md --check --corpus $(CORPUS)

clean:
	rm -rf bin public
