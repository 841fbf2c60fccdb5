/**
 * The boot firmware of a {@link VirtualMachine}, the `firmware` of `virtseed_domain`. Distribution cloud images
 * boot under both; some (Fedora CoreOS on aarch64, many vendor images) only under UEFI.
 */
export enum Firmware {
  /** Legacy BIOS (SeaBIOS): the image's boot loader from its MBR / BIOS boot partition. */
  BIOS = 'bios',
  /**
   * UEFI (OVMF, Debian package `ovmf` on the host): the image's EFI system partition. The domain gets its own NVRAM
   * (UEFI variables), created when it starts and removed with it.
   */
  EFI = 'efi',
}
