/**
 * A storage size, in the manner of aws-cdk's `Size`: `Size.gibibytes(10).toBytes()` → 10737418240.
 * Binary units (KiB = 1024 bytes). Immutable.
 */
export class Size {
  /** `amount` bytes. */
  static bytes(amount: number): Size {
    return new Size(amount, 1);
  }
  /** `amount` KiB (1024 bytes). */
  static kibibytes(amount: number): Size {
    return new Size(amount, 1024);
  }
  /** `amount` MiB (1024² bytes). */
  static mebibytes(amount: number): Size {
    return new Size(amount, 1024 ** 2);
  }
  /** `amount` GiB (1024³ bytes). */
  static gibibytes(amount: number): Size {
    return new Size(amount, 1024 ** 3);
  }
  /** `amount` TiB (1024⁴ bytes). */
  static tebibytes(amount: number): Size {
    return new Size(amount, 1024 ** 4);
  }

  private constructor(
    private readonly amount: number,
    private readonly unitBytes: number,
  ) {
    if (!Number.isFinite(amount) || amount < 0) {
      throw new RangeError(`Size: invalid amount ${amount}; expected a finite number >= 0`);
    }
  }

  /** The size in bytes, rounded to a whole byte. */
  toBytes(): number {
    return Math.round(this.amount * this.unitBytes);
  }

  /** The size in MiB (may be fractional). */
  toMebibytes(): number {
    return this.toBytes() / 1024 ** 2;
  }
}
