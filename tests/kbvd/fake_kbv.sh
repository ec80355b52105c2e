#!/usr/bin/env bash
# A stand-in for `kbv eval` that honours its contract (argv, --json, exit codes, --wait-for-candidate)
# so kbvd can be tested without building candidates. What it does is read from a marker in the
# candidate file: KBV_FAKE:pass (default), fail, hack:PATTERN, flag:NAME (a pass with that flag),
# crash, hang, badinput, garbage, sleep:SECONDS, level:N. Environment: FAKE_KBV_LOG (append start/end lines), FAKE_KBV_DELAY_S
# (extra seconds per evaluation), FAKE_KBV_SPARE_FAIL=1 (a spare exits at once with status 1),
# FAKE_KBV_SETUP_FAIL_FILE=PATH (while PATH exists, every run exits 3 as kbv eval does when its own
# set-up fails: a problem spec that does not parse).
# `problems --json` lists a few problem names, as kbv does (kbvd asks at start-up).
set -u
if [ "${1:-}" = problems ]; then
  echo '[{"name":"relu"},{"name":"gelu"},{"name":"softmax"},{"name":"matmul_square"},{"name":"layernorm"}]'
  exit 0
fi
[ "${1:-}" = eval ] || { echo "fake_kbv: only 'eval' and 'problems' are supported" >&2; exit 2; }
shift
path="" device="" gpu="" problem="" epoch="" wait_mode=0 json=0 extra=""
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=1 ;;
    --device) device="$2"; shift ;;
    --gpu) gpu="$2"; shift ;;
    --problem) problem="$2"; shift ;;
    --epoch) epoch="$2"; shift ;;
    --key-file|--shapes|--timeout-s) extra="$extra $1=$2"; shift ;;
    --forbid) shift ;;  # kbvd's store and watch folder: nothing to hide in a fake
    --wait-for-candidate) wait_mode=1 ;;
    --*) echo "fake_kbv: unknown option $1" >&2; exit 2 ;;
    *) path="$1" ;;
  esac
  shift
done
mode=cold
if [ -n "${FAKE_KBV_SETUP_FAIL_FILE:-}" ] && [ -e "$FAKE_KBV_SETUP_FAIL_FILE" ]; then
  echo "kbv eval: problems/relu.yaml: field 'outputs': missing (fix: list the problem's outputs)" >&2
  [ "$json" = 1 ] && echo '{"schema_version":2,"verdict":"bad_input","error":"problems/relu.yaml: field outputs: missing"}'
  exit 3
fi
if [ "$wait_mode" = 1 ]; then
  [ "${FAKE_KBV_SPARE_FAIL:-0}" = 1 ] && { echo "fake_kbv: spare refuses to start" >&2; exit 1; }
  mode=spare
  mapfile -t lines
  [ "${#lines[@]}" -gt 0 ] || { echo "fake_kbv: no candidate line on stdin" >&2; exit 2; }
  if [ "${#lines[@]}" -gt 1 ]; then
    # Several candidates (kbvd hands a spare a batch of one problem): each evaluated as a cold
    # run of this script would, one JSON line each, as kbv eval prints them; a refused one is a
    # bad_input line (exit_status 2) and the next goes on; a crash ends the whole evaluator.
    status=0
    for entry in "${lines[@]}"; do
      IFS=$'\t' read -r one one_options <<<"$entry"
      one_problem="$problem"
      case "$one_options" in *'"problem":"'*) one_problem="${one_options#*\"problem\":\"}"; one_problem="${one_problem%%\"*}" ;; esac
      args=(eval "$one" --json --device "$device" --epoch "$epoch")
      [ -n "$gpu" ] && args+=(--gpu "$gpu")
      [ -n "$one_problem" ] && args+=(--problem "$one_problem")
      err_file=$(mktemp)
      out=$(FAKE_KBV_BATCHED=1 "$0" "${args[@]}" 2>"$err_file")
      code=$?
      err=$(tr -d '"\\' <"$err_file" | tr '\n' ' '); rm -f "$err_file"
      [ "$code" -gt 128 ] && kill -s "$((code - 128))" $$
      if [ -z "$out" ] && [ "$code" = 2 ]; then
        printf '{"kbv_version":"0.0-fake","verdict":"bad_input","exit_status":2,"detail":"%s","hack_pattern":null,"failed_family":null,"flags":[]}\n' "$err"
      else
        echo "$out"
      fi
      [ "$code" -gt "$status" ] && status=$code
    done
    exit "$status"
  fi
  IFS=$'\t' read -r path options <<<"${lines[0]}"
  case "$options" in *'"problem":"'*) problem="${options#*\"problem\":\"}"; problem="${problem%%\"*}" ;; esac
fi
[ "${FAKE_KBV_BATCHED:-0}" = 1 ] && mode=batched
start="$EPOCHREALTIME"
log() { [ -n "${FAKE_KBV_LOG:-}" ] && echo "$1 $(basename "$path") epoch=$epoch device=$device gpu=${gpu:--} mode=$mode problem=${problem:--} pid=$$ t=$EPOCHREALTIME$extra" >>"$FAKE_KBV_LOG"; return 0; }
log start
[ -f "$path" ] || { echo "fake_kbv: $path: no such file; fix: pass an existing candidate" >&2; exit 2; }
marker=$(grep -aoE 'KBV_FAKE:[a-z_]+(:[a-z0-9_.]+)?' "$path" | head -n 1)
behaviour="${marker#KBV_FAKE:}"; behaviour="${behaviour:-pass}"
level=1
[ -n "${FAKE_KBV_DELAY_S:-}" ] && sleep "$FAKE_KBV_DELAY_S"
verdict=pass code=0 pattern=null flags="" detail="all families passed"
case "$behaviour" in
  pass) ;;
  level:*) level="${behaviour#level:}" ;;
  fail) verdict=fail_correctness code=1 detail="family normal: max abs error 3.2" ;;
  hack:*) verdict=hack_suspected code=1 pattern="\"${behaviour#hack:}\"" detail="caught" ;;
  flag:*) flags="\"${behaviour#flag:}\"" ;;
  crash) log crash; kill -SEGV $$ ;;
  hang) sleep 3600 ;;
  badinput) echo "fake_kbv: $path: not a shared object; fix: build it with kbv_add_candidate" >&2; log end; exit 2 ;;
  garbage) echo "this is not json"; log end; exit 0 ;;
  sleep:*) sleep "${behaviour#sleep:}" ;;
esac
wall=$(( ${EPOCHREALTIME/./} - ${start/./} ))
printf '{"kbv_version":"0.0-fake","verdict":"%s","detail":"%s","hack_pattern":%s,"failed_family":null,"flags":[%s],' \
  "$verdict" "$detail" "$pattern" "$flags"
printf '"candidate":{"path":"%s","sha256":null,"name":"fake","problem":"%s","device":"%s","abi_version":1},' \
  "$path" "${problem:-relu}" "$device"
printf '"problem":{"name":"%s","level":%s,"shape_set":"small","flops":1,"compulsory_bytes":1},"epoch":%s,"families":[],' \
  "${problem:-relu}" "$level" "${epoch:-0}"
printf '"timing":{"candidate":{"median_s":0.001,"iqr_s":0.0001,"min_s":0.001,"max_s":0.002,"samples":10},"baseline_fp32":{"median_s":0.002,"iqr_s":0.0001,"min_s":0.002,"max_s":0.002,"samples":10},"baseline_tf32":null},'
printf '"speedup":{"vs_fp32":2.0,"vs_tf32":1.25},"memory":{"candidate_peak_bytes":1024,"baseline_peak_bytes":2048,"ratio":0.5},"environment":{},"wall_s":%s}\n' \
  "$(printf '%d.%06d' $((wall / 1000000)) $((wall % 1000000)))"
log end
exit $code
