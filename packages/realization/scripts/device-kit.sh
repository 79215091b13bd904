#!/bin/bash
# A realization batch for a lent machine with many cores and no network (the `device` tool's): builds
# .device/ (git-ignored) with a Node binary (xz), one bundled file of the realization CLI, the plan of jobs
# (ranges included, so no packs travel) and run.sh; the repository's data folders stay home.
#
#   bash packages/realization/scripts/device-kit.sh "nl/v2:100" 30 "--flop-set balanced --range-floor 0.005"
#   (move data/packs and data/postflop aside: the tree must stay under the 64 MiB the device copies)
#   device run: bash .device/run.sh   (carry .device; CORES, BOARD_SECONDS, STOP_AFTER in the environment)
#   then: tar -xzf <files_at>/results.tgz -C /tmp/r && cp /tmp/r/r/*.json data/realization/<round>/
#
# Results come back as one tarball: the device returns only a few files from $OUT, not one per board.
set -eu
cd "$(dirname "$0")/../../.."
PACKS="${1:?packs, e.g. nl/v2:100}"
BOARDS="${2:-30}"
OPTIONS="${3:-}"
mkdir -p .device
node_modules/.pnpm/esbuild@*/node_modules/esbuild/bin/esbuild packages/realization/src/cli.ts --bundle \
  --platform=node --format=esm --outfile=.device/realization.mjs --log-level=warning \
  --banner:js="import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);"
# shellcheck disable=SC2086
node .device/realization.mjs plan --packs "$PACKS" --boards "$BOARDS" $OPTIONS --out .device/jobs.json
echo "$OPTIONS" > .device/options
python3 -c "import lzma, sys; open('.device/node.xz', 'wb').write(lzma.compress(open(sys.argv[1], 'rb').read(), preset=6))" \
  "$(readlink -f "$(command -v node)")"
cat > .device/run.sh <<'RUN'
#!/bin/bash
# One single-thread shard per core; each stops starting jobs after STOP_AFTER s and each flop's iterations
# after BOARD_SECONDS s (its file then says stoppedEarly); everything solved comes back in results.tgz.
set -u
cd "$(dirname "$0")"
python3 -c "import lzma; open('node', 'wb').write(lzma.decompress(open('node.xz', 'rb').read()))" && chmod +x node
CORES="${CORES:-$(nproc)}"
mkdir -p "$OUT/r" "$OUT/logs"
for i in $(seq 0 $((CORES - 1))); do
  # shellcheck disable=SC2046
  timeout "$((${STOP_AFTER:-300} + ${BOARD_SECONDS:-240} + 60))" ./node realization.mjs solve --jobs jobs.json \
    --out "$OUT/r" --threads 1 --shard "$i/$CORES" --budget "${STOP_AFTER:-300}" \
    --board-seconds "${BOARD_SECONDS:-240}" $(cat options) >"$OUT/logs/$i.out" 2>"$OUT/logs/$i.err" &
done
wait
ls "$OUT/r" | wc -l
cat "$OUT"/logs/*.err | grep -v " jobs$" | tail -40
tar -C "$OUT" -czf "$OUT/results.tgz" r logs && rm -rf "$OUT/r" "$OUT/logs"
RUN
chmod +x .device/run.sh
ls -la .device
