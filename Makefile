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
