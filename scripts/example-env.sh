# Sourced by the example scripts: when the user gave no VIRTSEED_IMAGE, build (or reuse) the project's small
# Debian test image, which boots through its own boot loader (GRUB; BIOS, or UEFI with VIRTSEED_FIRMWARE=efi).
if [ -z "${VIRTSEED_IMAGE:-}" ]; then
  _dir=$(bash "$(dirname "${BASH_SOURCE[0]}")/build-test-image.sh" | tail -n 1)
  # shellcheck disable=SC1091
  . "$_dir/image.env"
  export VIRTSEED_IMAGE="$IMAGE"
fi
export CHECKPOINT_DISABLE=1
