#!/usr/bin/env bash
# The checkpoint engine on file systems other than the one this clone sits on: a tmpfs, and xfs and
# btrfs images on loop devices. On each: the checkpoint tests, then the randomized soak, with every
# temporary workspace and store on that file system (TMPDIR). Why: inode numbers, timestamp
# granularity, birth times, rename and unlink semantics differ, and the engine trusts none of them
# blindly; this is where that is shown.
#   npm run soak:filesystems                    # 3 minutes of soak on each
#   SOAK_SECONDS=1800 npm run soak:filesystems  # half an hour on each
#   FILESYSTEMS="btrfs" npm run soak:filesystems
# Needs root (mount, loop devices) and mkfs.xfs / mkfs.btrfs (Debian: xfsprogs, btrfs-progs). A file
# system that cannot be made here is reported as skipped, never as passed.
set -uo pipefail
cd "$(dirname "$0")/.."

SOAK_SECONDS="${SOAK_SECONDS:-180}"
FILESYSTEMS="${FILESYSTEMS:-tmpfs xfs btrfs}"
work="$(mktemp -d)"
# mktemp's folder is private; the test that runs a child as another user must reach the mounts.
chmod 755 "$work"
mounts=()
cleanup() {
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done
  # Never through a mount that is still there (a lazy unmount detaches it at once).
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap "exit 130" INT TERM

if [ "$(id -u)" != 0 ]; then
  echo "soak:filesystems needs root (it mounts file systems); nothing run" >&2
  exit 2
fi

# Mounts a fresh file system of type $1 at $work/$1; prints why not and fails when it cannot.
make_fs() {
  local fs="$1" mnt="$work/$1"
  mkdir -p "$mnt"
  case "$fs" in
    tmpfs) mount -t tmpfs -o size=4G tmpfs "$mnt" || return 1 ;;
    xfs | btrfs | ext4)
      command -v "mkfs.$fs" >/dev/null || { echo "no mkfs.$fs (Debian: apt-get install xfsprogs btrfs-progs)"; return 1; }
      local force=-f
      [ "$fs" = ext4 ] && force=-F
      truncate -s 3G "$work/$fs.img" || return 1
      "mkfs.$fs" -q "$force" "$work/$fs.img" >/dev/null || return 1
      mount -o loop "$work/$fs.img" "$mnt" || return 1
      ;;
    *) echo "unknown file system $fs"; return 1 ;;
  esac
  mounts+=("$mnt")
  # The tests run as this user, and one of them as another (safety.test.ts): a sticky, open /tmp.
  chmod 1777 "$mnt"
}

summary=()
status=0
for fs in $FILESYSTEMS; do
  echo "=== $fs"
  # Not in a subshell: make_fs records the mount for cleanup.
  if ! make_fs "$fs" >"$work/$fs-mkfs.log" 2>&1; then
    summary+=("$fs: skipped ($(tail -n 1 "$work/$fs-mkfs.log" || true))")
    continue
  fi
  mnt="$work/$fs"
  tests="passed"
  if ! TMPDIR="$mnt" npx vitest run test/checkpoints >"$work/$fs-tests.log" 2>&1; then
    tests="FAILED"
    status=1
    tail -n 60 "$work/$fs-tests.log"
  fi
  counts="$(sed 's/\x1b\[[0-9;]*m//g' "$work/$fs-tests.log" | grep -E '^ +Tests ' | tr -s ' ')"
  soak="$(TMPDIR="$mnt" SOAK_SECONDS="$SOAK_SECONDS" npx tsx scripts/soak-checkpoints.ts 2>&1 | tee "$work/$fs-soak.log" | grep -E 'scenarios|FAIL' | tail -n 20)"
  if grep -q '^FAIL' "$work/$fs-soak.log"; then
    status=1
    # A failing seed replays on the same kind of file system: TMPDIR=<a $fs mount> SEED=… npm run soak:checkpoints
    grep -A5 '^FAIL' "$work/$fs-soak.log"
  fi
  summary+=("$fs: checkpoint tests $tests (${counts# }); soak ${SOAK_SECONDS}s: $(echo "$soak" | tail -n 1)")
done

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
exit $status
