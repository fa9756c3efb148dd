#!/usr/bin/env bash
# A campaign in SHARDS shards run by GNU parallel, then merged into the campaign.json the
# unsharded campaign writes (docs/campaigns.md, "A campaign in shards"; tested as-is by
# cli.sharded_campaign_recipe). Extra arguments go to parallel: `--sshloginfile FILE` (and
# `--return`, `--cleanup`) spreads the shards over machines.
# Usage: cli/sharded-campaign.sh SIM SHARDS RUNS SEED OUT [PARALLEL-OPTION...]
# Exit status: merge's (0 passed, 1 a run failed, 2 a shard is missing or foreign).
set -u
sim=$1 shards=$2 runs=$3 seed=$4 out=$5
shift 5
# A shard that finds a failure exits 1 and still writes its campaign.json: merge decides.
seq 0 $((shards - 1)) | parallel --will-cite "$@" "$sim" campaign --runs "$runs" --seed "$seed" --shard {}/"$shards" --out "$out"/shard-{}
"$sim" merge "$out"/shard-* --out "$out"/merged --junit "$out"/merged/junit.xml
