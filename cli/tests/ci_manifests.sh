#!/usr/bin/env bash
# cli.ci_manifests: the GitHub Actions workflow (.github/workflows/campaign.yml) and the
# Kubernetes Indexed Job (deploy/campaign-job.yaml) parsed for their shard count, matrix
# or completions, and their trafikey-sim command lines, which then run here exactly as
# written (with a small RUNS): every shard, then the merge, whose campaign.json must be the
# unsharded campaign's, byte for byte.
# Usage: ci_manifests.sh SOURCE_DIR BIN_DIR WORK_DIR
set -euo pipefail
src=$1 bin=$2 work=$3
fail() { echo "ci_manifests: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
runs=300 seed=13
"$bin/trafikey-sim" campaign --runs $runs --seed $seed --out "$work/whole" >/dev/null 2>&1

# GitHub Actions: env SHARDS, the matrix 0..SHARDS-1, the shard and merge steps.
wf=$src/.github/workflows/campaign.yml
shards=$(sed -n 's/^  SHARDS: "\([0-9]*\)"$/\1/p' "$wf")
matrix=$(sed -n 's/^ *shard: \[\(.*\)\]$/\1/p' "$wf" | tr -d ' ')
[[ -n $shards && $matrix == "$(seq -s, 0 $((shards - 1)))" ]] ||
  fail "$wf: the matrix ($matrix) is not 0..SHARDS-1 (SHARDS=$shards)"
shard_cmd=$(sed -n 's/^ *- run: \(build\/bin\/trafikey-sim campaign .*\)$/\1/p' "$wf")
merge_cmd=$(sed -n 's/^ *- run: \(build\/bin\/trafikey-sim merge .*\)$/\1/p' "$wf")
[[ -n $shard_cmd && -n $merge_cmd ]] || fail "$wf: no campaign or merge step found"
mkdir -p "$work/gha/build" && ln -s "$bin" "$work/gha/build/bin"
for s in ${matrix//,/ }; do
  cmd=${shard_cmd//'${{ matrix.shard }}'/$s}
  [[ $cmd != *'${{'* ]] || fail "$wf: an expression left in: $cmd"
  (cd "$work/gha" && RUNS=$runs SEED=$seed SHARDS=$shards sh -ec "$cmd" >/dev/null 2>&1) ||
    fail "$wf: shard $s failed: $cmd"
done
(cd "$work/gha" && sh -ec "$merge_cmd" >/dev/null) || fail "$wf: merge failed: $merge_cmd"
cmp "$work/whole/campaign.json" "$work/gha/out/merged/campaign.json" ||
  fail "$wf: the merged campaign.json is not the unsharded one"
[[ -s $work/gha/out/merged/junit.xml && -s $work/gha/out/shard-0/junit.xml ]] || fail "$wf: no junit.xml"

# Kubernetes: completions == SHARDS, the two `sh -c` args, JOB_COMPLETION_INDEX per pod.
job=$src/deploy/campaign-job.yaml
completions=$(sed -n 's/^  completions: \([0-9]*\)$/\1/p' "$job")
kshards=$(sed -n 's/^ *- { name: SHARDS, value: "\([0-9]*\)" }$/\1/p' "$job")
[[ -n $completions && $completions == "$kshards" ]] ||
  fail "$job: completions ($completions) and SHARDS ($kshards) differ"
shard_cmd=$(sed -n 's/^ *- \(trafikey-sim campaign .*\)$/\1/p' "$job")
merge_cmd=$(sed -n 's/^ *- \(trafikey-sim merge .*\)$/\1/p' "$job")
[[ -n $shard_cmd && -n $merge_cmd ]] || fail "$job: no campaign or merge command found"
for ((k = 0; k < completions; k++)); do
  PATH=$bin:$PATH RESULTS=$work/k8s RUNS=$runs SEED=$seed SHARDS=$kshards JOB_COMPLETION_INDEX=$k \
    sh -c "$shard_cmd" >/dev/null 2>&1 || fail "$job: pod $k failed: $shard_cmd"
done
PATH=$bin:$PATH RESULTS=$work/k8s sh -c "$merge_cmd" >/dev/null || fail "$job: merge failed: $merge_cmd"
cmp "$work/whole/campaign.json" "$work/k8s/merged/campaign.json" ||
  fail "$job: the merged campaign.json is not the unsharded one"
echo "ci_manifests: the workflow's $shards shards and the Job's $completions pods merge into the unsharded campaign"
