# Two commands for a new user: `make run` (the app) and `make test` (the test suite);
# `make check` is the quick tier of the tests.
# Each sets everything up from scratch on a fresh Debian machine: system packages when missing,
# then a virtual environment in .venv with the project and its dependencies.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
HOST   ?= 0.0.0.0
PORT   ?= 5000

.PHONY: run test check bench eval system-deps clean

## Debian packages the project uses: tesseract (second-opinion OCR), chromium (browser tests),
## fonts (the renderer of sample boards and training tiles; the stress scenes of lab/stress
## letter tiles in serif, slab, condensed, rounded and geometric faces too), openssl (the
## certificate of `tileref serve --https`). Installed only when something is missing.
system-deps:
	@missing=""; \
	command -v tesseract >/dev/null || missing="$$missing tesseract-ocr"; \
	command -v chromium  >/dev/null || missing="$$missing chromium"; \
	command -v openssl   >/dev/null || missing="$$missing openssl"; \
	[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || missing="$$missing fonts-dejavu-core"; \
	[ -d /usr/share/fonts/truetype/liberation2 ] || missing="$$missing fonts-liberation2"; \
	[ -d /usr/share/fonts/truetype/freefont ] || missing="$$missing fonts-freefont-ttf"; \
	[ -e /usr/share/fonts/truetype/noto/NotoSans-Bold.ttf ] || missing="$$missing fonts-noto-core"; \
	[ -d /usr/share/fonts/opentype/urw-base35 ] || missing="$$missing fonts-urw-base35"; \
	[ -d /usr/share/fonts/opentype/roboto/slab ] || missing="$$missing fonts-roboto-slab"; \
	[ -d /usr/share/fonts/truetype/comfortaa ] || missing="$$missing fonts-comfortaa"; \
	[ -d /usr/share/fonts/truetype/quicksand ] || missing="$$missing fonts-quicksand"; \
	[ -e /usr/share/fonts/truetype/crosextra/Caladea-Bold.ttf ] || missing="$$missing fonts-crosextra-caladea"; \
	[ -e /usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf ] || missing="$$missing fonts-crosextra-carlito"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: system-deps $(STAMP)
	$(VENV)/bin/tileref serve --host $(HOST) --port $(PORT)

test: system-deps $(STAMP)
	$(PY) -m pytest -q

## The quick tier, for every change: the whole suite but the tests marked slow (accuracy
## experiments over many photos or renders, trainings, benchmarks, HEIC encodes).
check: system-deps $(STAMP)
	$(PY) -m pytest -q -m "not slow"

bench: system-deps $(STAMP)
	$(PY) -m bench

eval: system-deps $(STAMP)
	$(VENV)/bin/tileref eval

clean:
	rm -rf $(VENV) build *.egg-info
