import {
  LibvirtError,
  VIR_ERR_NO_DOMAIN,
  VIR_ERR_NO_STORAGE_POOL,
  VIR_ERR_NO_STORAGE_VOL,
  VIR_ERR_OPERATION_INVALID,
  decodeRemoteError,
  encodeRemoteError,
  isLibvirtError,
} from '../../src/libvirt/errors';

describe('decodeRemoteError', () => {
  it('GIVEN a remote_error with a domain and a network WHEN decoded THEN code, domain, level, message and strings are kept', () => {
    const bytes = Buffer.from(
      '0000002a' +
        '0000000a' + // code 42, domain VIR_FROM_QEMU
        '00000001' +
        '00000004' +
        '6e6f7065' + // message "nope"
        '00000002' + // level error
        '00000001' +
        '00000001' +
        '64000000' +
        '00'.repeat(16) +
        'ffffffff' + // dom {name "d", uuid, id -1}
        '00000001' +
        '00000001' +
        '61000000' + // str1 "a"
        '00000000' +
        '00000000' + // str2, str3 null
        '00000003' +
        '00000004' + // int1, int2
        '00000001' +
        '00000001' +
        '6e000000' +
        '00'.repeat(16), // net {name "n", uuid}
      'hex',
    );
    const e = decodeRemoteError(bytes);
    expect(e).toBeInstanceOf(LibvirtError);
    expect([e.code, e.domain, e.level, e.message, e.str1, e.str2, e.int1, e.int2]).toEqual([42, 10, 2, 'nope', 'a', null, 3, 4]);
  });

  it('GIVEN an error with a null message WHEN decoded THEN the message names the code', () => {
    const e = decodeRemoteError(encodeRemoteError({ code: 50, domain: 18, level: 2, message: null }));
    expect(e.message).toBe('libvirt error code 50');
  });

  it('GIVEN an encoded error WHEN decoded THEN it round-trips', () => {
    const e = decodeRemoteError(encodeRemoteError({ code: 49, domain: 18, level: 2, message: 'no pool', str1: 's', int2: 9 }));
    expect([e.code, e.message, e.str1, e.int2]).toEqual([49, 'no pool', 's', 9]);
  });
});

describe('error constants', () => {
  it('GIVEN virterror.h WHEN the exported numbers are compared THEN they match libvirt', () => {
    expect([VIR_ERR_NO_DOMAIN, VIR_ERR_NO_STORAGE_POOL, VIR_ERR_NO_STORAGE_VOL, VIR_ERR_OPERATION_INVALID]).toEqual([42, 49, 50, 55]);
  });

  it('GIVEN a LibvirtError WHEN tested with isLibvirtError and a code THEN only the matching code passes', () => {
    const e = new LibvirtError(42, 10, 2, 'x');
    expect([isLibvirtError(e, 42), isLibvirtError(e, 50), isLibvirtError(new Error('x'))]).toEqual([true, false, false]);
  });
});
