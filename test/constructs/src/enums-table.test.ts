/**
 * Every enum of the constructs against the field table it stands for: the same set of values, so the constructs
 * cannot offer a value the provider refuses nor miss one it takes (the table's `values` is the one spelling).
 */
import {
  BootDevice,
  type CpuTopology,
  type DiskOptions,
  Firmware,
  type NicOptions,
  InputDevice,
  LifecycleAction,
  NetworkMode,
  type RngOptions,
  type DirectOptions,
  type FilesystemConfig,
  type NetworkAttachmentConfig,
  type NinePOptions,
  type VolumeProps,
  SnapshotBefore,
  StoragePoolType,
  type TpmConfig,
  VideoModel,
  WaitFor,
  Watchdog,
  WatchdogAction,
} from '../../../constructs';
import {
  DISK_OPTIONS,
  NIC_OPTIONS,
  type DiskOptionKey,
  type DomainCpuTopology,
  type DomainDirectMode,
  type DomainFilesystemAccessMode,
  type DomainInput,
  type DomainNicOptions,
  type DomainRng,
  type DomainTpm,
  type DomainWatchdog,
  type NicOptionKey,
} from '../../../src/domain';
import { BOOT_DEVICES, DOMAIN_FIELDS, NETWORK_FIELDS, POOL_FIELDS, type VolumeFormat as FieldsVolumeFormat } from '../../../src/fields';

const D = DOMAIN_FIELDS.fields;
const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe('construct enums and the field tables', () => {
  test.each<[string, Record<string, string>, { readonly [value: string]: string }]>([
    ['LifecycleAction (on_crash)', LifecycleAction, D.on_crash.values],
    ['VideoModel (video)', VideoModel, D.video.values],
    ['WatchdogAction (watchdog.action)', WatchdogAction, D.watchdog.fields.action.values],
    ['Firmware (firmware)', Firmware, D.firmware.values],
    ['SnapshotBefore (snapshot_before)', SnapshotBefore, D.snapshot_before.values],
    ['WaitFor (wait_for)', WaitFor, D.wait_for.values],
    ['NetworkMode (virtseed_network.mode)', NetworkMode, NETWORK_FIELDS.fields.mode.values],
    ['StoragePoolType (virtseed_pool.type)', StoragePoolType, POOL_FIELDS.fields.type.values],
  ])('GIVEN the enum %s WHEN its values are listed THEN they are the table values', (_, enumType, values) => {
    expect(sorted(Object.values(enumType))).toEqual(sorted(Object.keys(values)));
  });

  test('GIVEN BootDevice WHEN listed THEN they are the boot devices of the table (BOOT_DEVICES: boot_devices has no values list)', () => {
    expect(sorted(Object.values(BootDevice))).toEqual(sorted(BOOT_DEVICES));
  });
});

describe('DiskOptions and DISK_OPTIONS', () => {
  /** A compile-time check: DiskOptions has exactly the props of DISK_OPTIONS (true only when both key sets match). */
  type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
  const sameKeys: Same<keyof DiskOptions, DiskOptionKey> = true;

  test('GIVEN DiskOptions WHEN its props are compared with DISK_OPTIONS THEN each option has one prop (checked by tsc)', () => {
    expect(sameKeys).toBe(true);
    expect(Object.keys(DISK_OPTIONS).length).toBeGreaterThan(0);
  });
});

describe('NicOptions and NIC_OPTIONS', () => {
  type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
  /** A compile-time check: NicOptions has exactly the props of NIC_OPTIONS, each of the model's type. */
  const sameKeys: Same<keyof NicOptions, NicOptionKey> = true;
  const sameTypes: Same<Required<NicOptions>, Required<DomainNicOptions>> = true;

  test('GIVEN NicOptions WHEN its props are compared with NIC_OPTIONS THEN each option has one prop of its type (checked by tsc)', () => {
    expect([sameKeys, sameTypes]).toEqual([true, true]);
    expect(Object.keys(NIC_OPTIONS).length).toBeGreaterThan(0);
  });
});

describe('the TPM, RNG, input and watchdog constructs and their option tables (src/domain/device-options.ts)', () => {
  type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
  /** Compile-time checks: each construct spells its device's options as the model (so the table) does. */
  const same: true[] = [
    true satisfies Same<TpmConfig, DomainTpm>,
    true satisfies Same<Required<RngOptions>, Required<DomainRng>>,
    true satisfies Same<InputDevice['type'], DomainInput['type']>,
    true satisfies Same<InputDevice['bus'], DomainInput['bus']>,
    true satisfies Same<Watchdog['model'] | 'itco', DomainWatchdog['model']>,
    true satisfies Same<`${WatchdogAction}`, DomainWatchdog['action']>,
    true satisfies Same<CpuTopology, DomainCpuTopology>,
  ];

  /** The unions the constructs spell out for their docs (typedoc shows a union, not the name of a model type). */
  const spelled: true[] = [
    true satisfies Same<NonNullable<VolumeProps['format']>, FieldsVolumeFormat>,
    true satisfies Same<NonNullable<NinePOptions['accessMode']>, DomainFilesystemAccessMode>,
    true satisfies Same<NonNullable<FilesystemConfig['accessMode']>, DomainFilesystemAccessMode>,
    true satisfies Same<NonNullable<DirectOptions['mode']>, DomainDirectMode>,
    true satisfies Same<NonNullable<NetworkAttachmentConfig['directMode']>, DomainDirectMode>,
  ];

  test('GIVEN the unions the constructs spell WHEN compared with the tables THEN the same values (checked by tsc)', () => {
    expect(spelled.every(Boolean)).toBe(true);
  });

  test('GIVEN the device constructs WHEN their types are compared with the option tables THEN they are the same (checked by tsc)', () => {
    expect(same.every(Boolean)).toBe(true);
  });
});
