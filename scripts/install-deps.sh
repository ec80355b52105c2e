#!/usr/bin/env bash
# Installs kbv's build and test dependencies from Debian packages (idempotent; needs root).
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libboost-dev libboost-program-options-dev libboost-filesystem-dev libboost-system-dev
  libyaml-cpp-dev nlohmann-json3-dev libspdlog-dev libfmt-dev libssl-dev librandom123-dev
  libsqlite3-dev libseccomp-dev libsystemd-dev libcap-dev
  prometheus-cpp-dev libcivetweb-dev
  libgtest-dev libgmock-dev
  prometheus curl python3 python3-yaml python3-numpy  # numpy: bench/tolerance's error models
  systemd  # systemd-analyze, for the checks of systemd/ in tests/kbvd
  libjs-vega  # Vega 5, inlined into sweep reports (report.html)
  chromium    # headless, for the test that every plot of report.html renders (tests/sweep)
  slurm-wlm munge  # a one-node Slurm cluster (slurmctld, slurmd, munged, sbatch) the kbv sweep --slurm test starts itself (tests/sweep)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
