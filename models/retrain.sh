#!/usr/bin/env bash
# Retrain both card models on a CUDA machine in one command, within a time budget, and leave
# the new models/gouji-{cards,ranks}.{onnx,pt,md} and a log with `gouji eval`'s figures in
# "$OUT". Run from the repository root: `OUT=DIR bash models/retrain.sh`.
#
# The machine needs Python with torch, torchvision, numpy, scipy, opencv, onnx, onnxruntime,
# pillow, pyyaml, psutil, requests and matplotlib; it may have no network and not the project.
# Beforehand, on a machine with network, fetch the missing wheels into the ignored folder
# .whl/ (pure Python, 1.7 MB in all) and copy the real photos into the ignored folder
# .real-cards-edje/ (31 MB):
#
#   grep -qx '/.whl/' .git/info/exclude || echo '/.whl/' >> .git/info/exclude
#   grep -qx '/.real-cards-edje/' .git/info/exclude || echo '/.real-cards-edje/' >> .git/info/exclude
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#       --implementation cp -d .whl ultralytics==8.4.190 ultralytics-thop==2.2.3 onnxslim==0.1.98
#   cp -r ../shared/data/real-cards-edje .real-cards-edje
#
# Ultralytics' other requirements are left out on purpose: polars (55 MB) serves only its
# reader of results.csv, which vision.train replaces; ultralytics-platform,
# nvidia-ml-py (pynvml) and onnxslim's colorama are not imported on the way from training to
# export; opencv-python is there as opencv-python-headless.
#
# Stages: install the wheels (pip --target, or plain unzip where there is no pip) and put the
# project on PYTHONPATH (no install, no network); generate the synthetic sets with all cores;
# fine-tune the rank classifier on the GPU when RANK_EPOCHS asks for it (by default not: a
# perfect reader of the detector's boxes would add 2 points of plays, bench/bench_rank_bound.py,
# so the GPU's minutes go to the detector); fine-tune the one-class detector on
# the GPU for what is left of BUDGET_S less RESERVE_S (its final validation and export, and
# the evaluations); `gouji eval` of the new detector with the classifier (the new one, if
# any); the detector's one-to-one head exported too (e2e/gouji-cards.*, no NMS at run time)
# and evaluated the same way. Each model lands in "$OUT" as soon as it is
# exported, so a run cut short still returns what it finished; a training that fails leaves
# the other one to run (and `gouji eval` pairs the new model with the shipped one), and the
# script then exits 1.
#
# On the H200 machine of 4 Dec (16 cores), with the defaults: the sets took 136 s, the
# detector 12 epochs of 24,591 tiles in 266 s (about 20 s an epoch), the rest (reading the
# labels, the export, both evaluations) 144 s: 546 s in all, inside one 600-second call.
# A second call on the machine while it is still warm finds the sets and runs/ in place: the
# sets then take 5 s (4 Dec, evening: BUDGET_S=290 RESERVE_S=95 gave 15 epochs in 261 s).
#
# Environment (defaults for the H200 machine; a smoke test on a CPU, about two minutes:
#   OUT=$(mktemp -d) DEVICE=cpu WORKERS=1 SEEDS=1 COUNT=16 VAL_COUNT=8 DET_S=15 DET_BATCH=8 \
#   RANK_EPOCHS=1 RANK_BATCH=64 RANK_THREADS=1 DATASETS=/tmp/smoke-ds \
#   EVAL_DATA=/tmp/smoke-ds/synth-s2-n8 bash models/retrain.sh):
#   OUT            folder the results go to (required)
#   DEVICE         torch device of the classifier, cuda or cpu (the detector gets 0 or cpu)
#   WORKERS        processes generating tiles, cutting crops and loading batches (all cores)
#   SEEDS, COUNT   training sets: one of COUNT tiles per seed ("1 3", 12000: the shipped data)
#   VAL_SEED, VAL_COUNT  the detector's validation set (2, 400)
#   BUDGET_S       seconds the whole run aims at (560)
#   RESERVE_S      seconds kept after the detector's training for its exports and evals (150)
#   DET_S          seconds of detector training (default: what the budget leaves, at least 60)
#   DET_WEIGHTS    checkpoint the detector is fine-tuned from (models/gouji-cards.pt)
#   DET_BATCH, DET_LR0   detector batch and initial rate (128, 0.002)
#   DET_ARGS       further `gouji train` options, e.g. --one-to-one-features, or
#                  "--grow --depth 1.0" (a deeper detector started from DET_WEIGHTS)
#   RANK_EPOCHS, RANK_BATCH, RANK_LR, RANK_THREADS   classifier run (0: none; 256, 0.002, 8)
#   GOUJI_REAL_CARDS  the real photos (default .real-cards-edje, else ../shared/data/...)
#   DATASETS       where the generated sets go (datasets)
#   EVAL_DATA      labelled folder `gouji eval` scores (default: its held-out synthetic set)
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${OUT:?set OUT to the folder the results go to}
DEVICE=${DEVICE:-cuda}
WORKERS=${WORKERS:-$(nproc)}
SEEDS=${SEEDS:-1 3}
COUNT=${COUNT:-12000}
VAL_SEED=${VAL_SEED:-2}
VAL_COUNT=${VAL_COUNT:-400}
BUDGET_S=${BUDGET_S:-560}
RESERVE_S=${RESERVE_S:-150}
DET_WEIGHTS=${DET_WEIGHTS:-models/gouji-cards.pt}
DET_S=${DET_S:-}
DET_BATCH=${DET_BATCH:-128}
DET_LR0=${DET_LR0:-0.002}
DET_ARGS=${DET_ARGS:-}
RANK_EPOCHS=${RANK_EPOCHS:-0}
RANK_BATCH=${RANK_BATCH:-256}
RANK_LR=${RANK_LR:-0.002}
RANK_THREADS=${RANK_THREADS:-8}
DATASETS=${DATASETS:-datasets}
EVAL_DATA=${EVAL_DATA:-}
SITE=${SITE:-/tmp/gouji-site}
if [[ -z ${GOUJI_REAL_CARDS:-} && -d .real-cards-edje ]]; then
  GOUJI_REAL_CARDS=$PWD/.real-cards-edje
fi
export GOUJI_REAL_CARDS=${GOUJI_REAL_CARDS:-$(cd .. && pwd)/shared/data/real-cards-edje}
export YOLO_OFFLINE=1 PYTHONUNBUFFERED=1
DET_DEVICE=$([[ $DEVICE == cpu ]] && echo cpu || echo 0)
read -ra seeds <<< "$SEEDS"
read -ra det_args <<< "$DET_ARGS"

mkdir -p "$OUT"
exec > >(tee -a "$OUT/retrain.log") 2>&1
tee_pid=$!
trap 'exec >&- 2>&-; wait "$tee_pid"' EXIT  # the log is whole before the results are taken
start=$SECONDS
stage_start=$SECONDS
stage() {
  echo "== $(date -u +%H:%M:%S) [$((SECONDS - start)) s] $1 (previous stage $((SECONDS - stage_start)) s)"
  stage_start=$SECONDS
}
gouji() { python3 -m assistant.cli "$@"; }

stage "install"
if [[ -d .whl ]]; then
  if python3 -m pip --version >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target "$SITE" .whl/*.whl
  else  # every carried wheel is pure Python: unpacked, it is installed
    for wheel in .whl/*.whl; do python3 -m zipfile -e "$wheel" "$SITE"; done
  fi
fi
export PYTHONPATH=$SITE:$PWD${PYTHONPATH:+:$PYTHONPATH}
python3 - <<'EOF'
import importlib.metadata as md, os, sys
import torch
print(f"python {sys.version.split()[0]}, torch {torch.__version__}, ultralytics "
      f"{md.version('ultralytics')}, cuda {torch.cuda.is_available()}"
      + (f" ({torch.cuda.get_device_name(0)})" if torch.cuda.is_available() else "")
      + f", {os.cpu_count()} cpus")
EOF
real=()
if [[ -d $GOUJI_REAL_CARDS/images ]]; then
  real=(--real)
  echo "real photos: $GOUJI_REAL_CARDS"
else
  echo "real photos: none at $GOUJI_REAL_CARDS (synthetic data only)"
fi

stage "synthetic sets: seeds $SEEDS x $COUNT, validation $VAL_SEED x $VAL_COUNT, held-out"
python3 - "$DATASETS" "$WORKERS" "$COUNT" "$VAL_SEED" "$VAL_COUNT" "${seeds[@]}" <<'EOF'
import sys
from pathlib import Path

from vision.evaluate import heldout_synthetic_set
from vision.train import synthetic_set

root, workers, count, val_seed, val_count, *seeds = sys.argv[1:]
for seed, n in [*((int(s), int(count)) for s in seeds), (int(val_seed), int(val_count))]:
    print(synthetic_set(Path(root), seed=seed, count=n, workers=int(workers)), flush=True)
print(heldout_synthetic_set(workers=int(workers)))
EOF

failed=()
if (( RANK_EPOCHS > 0 )); then
  stage "rank classifier: $RANK_EPOCHS epochs on $DEVICE"
  gouji train-ranks --seed "${seeds[@]}" --count "$COUNT" "${real[@]}" --datasets "$DATASETS" \
    --weights models/gouji-ranks.pt --device "$DEVICE" --workers "$WORKERS" \
    --threads "$RANK_THREADS" --epochs "$RANK_EPOCHS" --batch "$RANK_BATCH" --lr "$RANK_LR" \
    --name gpu-ranks --export-to "$OUT/gouji-ranks.onnx" || failed+=("rank classifier")
fi

left=$((BUDGET_S - (SECONDS - start) - RESERVE_S))
DET_S=${DET_S:-$((left > 60 ? left : 60))}
hours=$(python3 -c "print(round($DET_S / 3600, 4))")
stage "detector: $DET_S s ($hours h) on device $DET_DEVICE"
sets=(--seed "${seeds[@]}" --count "$COUNT" --val-seed "$VAL_SEED" --val-count "$VAL_COUNT"
      --datasets "$DATASETS")
gouji train --one-class --weights "$DET_WEIGHTS" "${sets[@]}" "${real[@]}" \
  --device "$DET_DEVICE" --hours "$hours" --batch "$DET_BATCH" --lr0 "$DET_LR0" \
  --workers "$WORKERS" --name gpu-cards --export-every 0 --export-to "$OUT/gouji-cards.onnx" \
  "${det_args[@]}" || failed+=("detector")
best=runs/gpu-cards/weights/best.pt
if [[ ! -f $OUT/gouji-cards.onnx && -f $best ]]; then  # cut short: export its best epoch
  stage "detector export of $best"
  gouji train --export-only "$best" "${sets[@]}" --export-to "$OUT/gouji-cards.onnx" \
    || failed+=("detector export")
fi

stage "gouji eval"
cards=$OUT/gouji-cards.onnx ranks=$OUT/gouji-ranks.onnx
[[ -f $cards ]] || cards=models/gouji-cards.onnx
[[ -f $ranks ]] || ranks=models/gouji-ranks.onnx
gouji eval --model "$cards" --classifier "$ranks" --threads "$WORKERS" \
  ${EVAL_DATA:+--data "$EVAL_DATA"} || failed+=("eval")

# the last epoch's, not the best by the raw head's validation: the one-to-one head's share of
# the loss grows over the run (Ultralytics' E2ELoss), so it is furthest along at the end
last=runs/gpu-cards/weights/last.pt
if [[ -f $last ]]; then  # decoded without NMS: see bench/bench_nms_bound.py
  stage "the detector's one-to-one head: export and gouji eval"
  gouji train --export-only "$last" "${sets[@]}" --end-to-end \
    --export-to "$OUT/e2e/gouji-cards.onnx" \
    && gouji eval --model "$OUT/e2e/gouji-cards.onnx" --classifier "$ranks" \
      --threads "$WORKERS" ${EVAL_DATA:+--data "$EVAL_DATA"} \
    || failed+=("one-to-one head")
fi

stage "done"
ls -l "$OUT"
if (( ${#failed[@]} )); then
  echo "failed: ${failed[*]}"
  exit 1
fi
