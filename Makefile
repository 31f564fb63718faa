# simgui — the two commands of the README's quick start are `make run` and `make test`.
GO      ?= go
BIN     := bin/simgui
# The headless build: a static binary without the window (no Ebiten, no GTK, Go's JPEG encoder).
HEADLESS_BIN := bin/simgui-headless
XVFB    := xvfb-run -a -s "-screen 0 1920x1080x24"
# The headless core: everything but the window and the editor, which need a display.
CORE    := $(shell $(GO) list ./... 2>/dev/null | grep -v -E '/(app/window|editor)(/|$$)')
# Only the GUI folders that exist: go list fails outright on a pattern that matches no folder.
GUI     := $(shell $(GO) list $(patsubst %,./%/...,$(wildcard app/window editor)) 2>/dev/null)

.PHONY: all setup build build-headless check-static run test vet fmt-check test-core test-gui test-python fuzz bench bench-python pgo train-demo generate clean

all: build

setup:
	@build/setup.sh

build: setup
	$(GO) build -o $(BIN) ./cmd/simgui

# Every headless command and face (run --headless, plugin, version, bench, the bridge, /control,
# the training API, the fast path) in one static binary for servers and containers.
build-headless:
	CGO_ENABLED=0 $(GO) build -tags headless -o $(HEADLESS_BIN) ./cmd/simgui

# The headless binary must need no shared library at all.
check-static: build-headless
	@out=$$(ldd $(HEADLESS_BIN) 2>&1); case "$$out" in \
	  *"not a dynamic executable"*) echo "$(HEADLESS_BIN): static" ;; \
	  *) echo "$(HEADLESS_BIN) links shared libraries:"; echo "$$out"; exit 1 ;; esac

# make run            window with the default scenario (a clear message where there is no display)
# make run HEADLESS=1 the same scenario headless, 10 simulated seconds, JSON summary
run: build
ifeq ($(HEADLESS),1)
	./$(BIN) run --headless --duration 10 --json $(ARGS)
else
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then echo "no display found (DISPLAY is not set): make run HEADLESS=1 runs the scenario headless" >&2; exit 1; fi
	./$(BIN) $(ARGS)
endif

test: setup fmt-check vet check-static test-core test-gui test-python fuzz

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	$(GO) vet -tags headless ./cmd/simgui ./app/sensors/jpegenc/...

test-core:
	$(GO) test -race -timeout 15m $(CORE)

# The window, the editor, and the CLI's window tests (skipped in test-core, which has no display),
# each package on an X server of its own: they type with real key events, and two windows on one
# display would take each other's focus.
test-gui:
	@set -e; for p in $(GUI); do $(XVFB) $(GO) test -timeout 10m $$p; done
	$(XVFB) $(GO) test -timeout 5m -run '^TestGUI' ./cmd/simgui

# The Python package against the binary just built, with Debian's python3 (numpy, torch, PIL):
# Gymnasium API contract, fast path versus HTTP, offline pip install, a step-bounded PPO run.
PYTHON  ?= /usr/bin/python3
test-python: build
	SIMGUI_BIN=$(CURDIR)/$(BIN) $(PYTHON) -m unittest discover -s python/tests -v

# Python-side throughput of the fast path (16 envs, 1 env) against the HTTP API, one run.
bench-python: build
	SIMGUI_BIN=$(CURDIR)/$(BIN) PYTHONPATH=python $(PYTHON) -m simgui.bench --json

# The training example end to end: PPO on KS0223Corridor-v0 (TRAIN_STEPS env steps), then 100
# evaluation episodes on held-out seeds; policy, curve and GIF in out/train-demo.
# WINDOW=1 opens simgui's window to watch the envs while it trains; THREADS=1 gives torch one
# thread (much faster on a machine other work keeps busy).
TRAIN_STEPS ?= 200000
train-demo: build
	SIMGUI_BIN=$(CURDIR)/$(BIN) $(PYTHON) examples/python/train_ppo.py --out out/train-demo \
		--total-steps $(TRAIN_STEPS) $(if $(filter 1,$(WINDOW)),--window) $(if $(THREADS),--threads $(THREADS))

# Short fuzzing of what strangers send: plugin archives, scenarios, device-port byte streams and
# training API bodies and fast path messages, about 15 s each. The budgets are counts of inputs,
# not durations: with a duration, Go 1.26's fuzz coordinator can fail a clean run with "context
# deadline exceeded" as the time runs out (golang/go#75804). FUZZTIME=5m (or 1000000x) for a
# longer run of each. Scenario inputs that resolve are slow to minimise (each compiles a track
# schema), so their minimisation is capped.
FUZZTIME ?=
fuzzfor = -fuzztime $(or $(FUZZTIME),$(1))
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzReadPlugin$$' $(call fuzzfor,100000x) ./plugins
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' $(call fuzzfor,100000x) ./plugins/archive
	$(GO) test -run '^$$' -fuzz '^FuzzFrameReader$$' $(call fuzzfor,150000x) ./app/bridge
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRequest$$' $(call fuzzfor,150000x) ./app/api
	$(GO) test -run '^$$' -fuzz '^FuzzStepMessage$$' $(call fuzzfor,150000x) ./app/fastpath
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' $(call fuzzfor,50000x) -fuzzminimizetime 2s ./app/scenario

bench: build
	./$(BIN) bench

# cmd/simgui/default.pgo, which `go build` of cmd/simgui uses by itself (profile-guided
# optimisation: hot calls inlined), is a CPU profile of these cases, the paths users wait on:
# the training fast path, both physics modes at fleet size, the renderer's looks. Remake it
# when those paths change much; a stale profile only optimises less.
PGO_CASES = ^(fastpath/step/16|world/step/kinematic/10000|world/step/ks0223/1000|render/real/84x84/all|render/real/640x480/all|render/rgb/84x84/serial|sensors/camera/84x84/rgb)$$
pgo: setup
	$(GO) build -pgo=off -o bin/simgui-nopgo ./cmd/simgui
	./bin/simgui-nopgo bench --filter '$(PGO_CASES)' --time 5s --cpuprofile cmd/simgui/default.pgo

generate: setup
	$(GO) generate ./...

clean:
	rm -rf bin out
