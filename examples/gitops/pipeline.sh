#!/usr/bin/env bash
# A GitOps pipeline for a cdktf project on virtseed, for a CI system to run as it is: no prompts, no colours, logs
# without secrets, one exit status a scheduler can act on. It needs bash, the project's cdktf CLI, terraform and the
# `virtseed` CLI (for `virtseed plan-summary`), and nothing from the virtseed repository.
#
# Usage: pipeline.sh plan|deploy|drift
#   plan    synth → terraform init → terraform plan -out → plan summary (Markdown) on stdout and in
#           $PIPELINE_OUT_DIR/plan-summary.md. For pull requests: post the file as a comment.
#   deploy  plan as above, then apply exactly the saved plan, then the drift check. For the main branch.
#   drift   synth → init → terraform plan -detailed-exitcode: what changed outside Terraform (drift report on stdout
#           and in $PIPELINE_OUT_DIR/drift-report.md). For a schedule.
#
# Exit status:
#   0   done, and the infrastructure matches the configuration
#   1   a step failed; the log names it and shows its output ($PIPELINE_OUT_DIR/<step>.log)
#   2   drift: the infrastructure differs from the configuration (objects changed outside Terraform, or a merged
#       change not deployed yet); the drift report says which
#   3   the plan holds a change PIPELINE_FAIL_ON refuses (nothing applied; the summary says which)
#   4   another run holds the state lock longer than PIPELINE_LOCK_TIMEOUT, or changed the state after this run's
#       plan (nothing applied by this run; run it again)
#   64  usage error
#
# Environment:
#   PIPELINE_APP_DIR       the cdktf project (where cdktf.json is)                     [.]
#   PIPELINE_STACK         the stack to deploy                                         [the only one]
#   PIPELINE_OUT_DIR       synth output, saved plan, step logs and reports             [$PIPELINE_APP_DIR/.pipeline]
#   PIPELINE_LOCK_TIMEOUT  how long a step waits for the state lock (terraform -lock-timeout)   [5m]; 0s fails at once
#   PIPELINE_FAIL_ON       restart | replace: refuse plans that restart (or replace) guests
#   PIPELINE_SYNTH_DIR     a synth output of this commit made before (`cdktf synth --output DIR`: a build job's
#                          artifact, or an earlier run's $PIPELINE_OUT_DIR/synth): used instead of synthesizing,
#                          copied into $PIPELINE_OUT_DIR/synth without its .terraform folders (the cdktf CLI is then
#                          not run)                                                   [unset: synthesize]
#   CDKTF, TERRAFORM, VIRTSEED   the commands              [npx --no-install cdktf] [terraform] [npx --no-install virtseed]
#   The state backend's own settings, e.g. PG_CONN_STR and PGPASSFILE for the pg backend: never printed.
#
# Files in PIPELINE_OUT_DIR: plan-summary.md and drift-report.md are meant for people; the saved plan (tfplan)
# holds sensitive values, as every Terraform plan file does: it is written with mode 0600 and removed after use,
# and the plan's JSON is piped to the summary, never written. Do not publish the folder as a whole.
set -euo pipefail
set +x
umask 077

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
log() { printf 'pipeline: %s\n' "$*" >&2; }

mode=${1:-}
case "$mode" in
  plan | deploy | drift) ;;
  -h | --help) usage; exit 0 ;;
  *) usage >&2; exit 64 ;;
esac
[ $# -eq 1 ] || { usage >&2; exit 64; }

app_dir=$(cd "${PIPELINE_APP_DIR:-.}" && pwd)
out=${PIPELINE_OUT_DIR:-$app_dir/.pipeline}
mkdir -p "$out"
out=$(cd "$out" && pwd)
lock_timeout=${PIPELINE_LOCK_TIMEOUT:-5m}
fail_on=${PIPELINE_FAIL_ON:-}
case "$fail_on" in "" | restart | replace) ;; *) log "PIPELINE_FAIL_ON='$fail_on': expected restart or replace"; exit 64 ;; esac
synth_from=""
if [ -n "${PIPELINE_SYNTH_DIR:-}" ]; then
  [ -d "$PIPELINE_SYNTH_DIR/stacks" ] || { log "PIPELINE_SYNTH_DIR='$PIPELINE_SYNTH_DIR': expected the output folder of cdktf synth (with stacks/ in it)"; exit 64; }
  synth_from=$(cd "$PIPELINE_SYNTH_DIR" && pwd)
fi
read -r -a cdktf <<< "${CDKTF:-npx --no-install cdktf}"
read -r -a terraform <<< "${TERRAFORM:-terraform}"
read -r -a virtseed <<< "${VIRTSEED:-npx --no-install virtseed}"
export TF_IN_AUTOMATION=1 TF_INPUT=0 CHECKPOINT_DISABLE=1 NO_COLOR=1 CI=${CI:-1}
unset TF_LOG TF_LOG_CORE TF_LOG_PROVIDER # debug logs may carry secrets
cd "$app_dir"

# Runs step $1 (the rest: its command), its output streamed to the log and kept in $out/$1.log; returns its status.
run() {
  local name=$1 rc
  shift
  log "$name: ${*}"
  set +e
  "$@" 2>&1 | tee "$out/$name.log" >&2
  rc=${PIPESTATUS[0]}
  set -e
  return "$rc"
}

# Ends the run after step $1 failed: 4 when the state was locked or changed by another run, else 1 (Terraform's
# messages: docs/FACTS.md, "Terraform state in PostgreSQL, locks and drift checks").
fail() {
  if grep -q -e 'Error acquiring the state lock' -e 'Saved plan is stale' "$out/$1.log" 2>/dev/null; then
    log "$1: another run holds the state lock (waited $lock_timeout) or changed the state after this plan; nothing applied by this run (exit 4)"
    exit 4
  fi
  log "$1 failed; its output is above and in $out/$1.log (exit 1)"
  exit 1
}

stack_dir=""
synth_and_init() {
  if [ -z "$synth_from" ]; then
    rm -rf "$out/synth"
    run synth "${cdktf[@]}" synth --output "$out/synth" || fail synth
  elif [ "$synth_from" != "$out/synth" ]; then
    log "synth: none, the synth output of $synth_from (PIPELINE_SYNTH_DIR)"
    rm -rf "$out/synth"
    mkdir "$out/synth"
    tar -C "$synth_from" --exclude=.terraform -cf - . | tar -C "$out/synth" -xf - || { log "synth: copying $synth_from failed (exit 1)"; exit 1; }
  else
    log "synth: none, the synth output in $out/synth (PIPELINE_SYNTH_DIR)"
  fi
  local stack=${PIPELINE_STACK:-}
  if [ -z "$stack" ]; then
    local stacks=("$out"/synth/stacks/*)
    [ ${#stacks[@]} -eq 1 ] && [ -d "${stacks[0]}" ] || { log "synth made ${#stacks[@]} stacks; set PIPELINE_STACK"; exit 1; }
    stack=$(basename "${stacks[0]}")
  fi
  stack_dir="$out/synth/stacks/$stack"
  [ -f "$stack_dir/cdk.tf.json" ] || { log "no stack '$stack' in the synth output"; exit 1; }
  run init "${terraform[@]}" -chdir="$stack_dir" init -no-color -input=false -lock-timeout="$lock_timeout" || fail init
}

# Summarizes saved plan $1 into $2 (Markdown) with title $3 and plan-summary's --fail-on $4 (may be empty), prints
# it on stdout; returns plan-summary's status (0, or 3 when the plan holds a change --fail-on refuses).
summarize() {
  local rc
  set +e
  "${terraform[@]}" -chdir="$stack_dir" show -no-color -json "$1" | "${virtseed[@]}" plan-summary --title "$3" ${4:+--fail-on "$4"} - > "$2"
  local codes=("${PIPESTATUS[@]}")
  set -e
  [ "${codes[0]}" = 0 ] || { log "terraform show -json $1 failed (exit ${codes[0]})"; exit 1; }
  rc=${codes[1]}
  [ "$rc" = 0 ] || [ "$rc" = 3 ] || { log "virtseed plan-summary failed (exit $rc)"; exit 1; }
  cat "$2"
  return "$rc"
}

plan() {
  run plan "${terraform[@]}" -chdir="$stack_dir" plan -no-color -input=false -lock-timeout="$lock_timeout" -out="$out/tfplan" || fail plan
  if ! summarize "$out/tfplan" "$out/plan-summary.md" 'Plan summary' "$fail_on"; then
    rm -f "$out/tfplan"
    log "plan refused by PIPELINE_FAIL_ON=$fail_on; nothing applied (exit 3)"
    exit 3
  fi
  log "plan summary written to $out/plan-summary.md"
}

apply() {
  run apply "${terraform[@]}" -chdir="$stack_dir" apply -no-color -input=false -lock-timeout="$lock_timeout" "$out/tfplan" || {
    rm -f "$out/tfplan"
    fail apply
  }
  rm -f "$out/tfplan"
}

drift() {
  local rc=0
  run drift "${terraform[@]}" -chdir="$stack_dir" plan -no-color -input=false -lock-timeout="$lock_timeout" -detailed-exitcode -out="$out/drift.tfplan" || rc=$?
  case $rc in
    0)
      rm -f "$out/drift.tfplan" "$out/drift-report.md"
      log "drift check: none, the infrastructure matches the configuration"
      ;;
    2)
      summarize "$out/drift.tfplan" "$out/drift-report.md" 'Drift report' ''
      rm -f "$out/drift.tfplan"
      log "drift check: the infrastructure differs from the configuration; report in $out/drift-report.md (exit 2)"
      exit 2
      ;;
    *) fail drift ;;
  esac
}

case "$mode" in
  plan)
    synth_and_init
    plan
    rm -f "$out/tfplan"
    ;;
  deploy)
    synth_and_init
    plan
    apply
    drift
    ;;
  drift)
    synth_and_init
    drift
    ;;
esac
log "$mode: done (exit 0)"
