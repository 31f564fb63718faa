# simgui — the two commands of the README's quick start are `make run` and `make test`.
GO      ?= go
BIN     := bin/simgui
XVFB    := xvfb-run -a -s "-screen 0 1920x1080x24"
# The headless core: everything but the window and the editor, which need a display.
CORE    := $(shell $(GO) list ./... 2>/dev/null | grep -v -E '/(app/window|editor)(/|$$)')
# Only the GUI folders that exist: go list fails outright on a pattern that matches no folder.
GUI     := $(shell $(GO) list $(patsubst %,./%/...,$(wildcard app/window editor)) 2>/dev/null)

.PHONY: all setup build run test vet fmt-check test-core test-gui fuzz bench generate clean

all: build

setup:
	@build/setup.sh

build: setup
	$(GO) build -o $(BIN) ./cmd/simgui

# make run            window with the default scenario (a clear message where there is no display)
# make run HEADLESS=1 the same scenario headless, 10 simulated seconds, JSON summary
run: build
ifeq ($(HEADLESS),1)
	./$(BIN) run --headless --duration 10 --json $(ARGS)
else
	./$(BIN) $(ARGS)
endif

test: setup fmt-check vet test-core test-gui fuzz

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

test-core:
	$(GO) test -race -timeout 15m $(CORE)

# The window, the editor, and the CLI's window tests (skipped in test-core, which has no display),
# each package on an X server of its own: they type with real key events, and two windows on one
# display would take each other's focus.
test-gui:
	@set -e; for p in $(GUI); do $(XVFB) $(GO) test -timeout 10m $$p; done
	$(XVFB) $(GO) test -timeout 5m -run '^TestGUI' ./cmd/simgui

# Short fuzzing of the plugin and scenario readers (archives and scenarios come from strangers);
# FUZZTIME=5m for a longer run. Scenario inputs that resolve are slow to minimise (each compiles
# a track schema), so its minimisation is capped to keep the time on fuzzing.
FUZZTIME ?= 15s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzReadPlugin$$' -fuzztime $(FUZZTIME) ./plugins
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) ./plugins/archive
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./app/scenario

bench: build
	./$(BIN) bench

generate: setup
	$(GO) generate ./...

clean:
	rm -rf bin out
