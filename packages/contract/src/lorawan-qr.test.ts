import { describe, expect, it } from 'vitest';
import { parseLoraWanQr } from './lorawan-qr.ts';

const EM300 = { devEui: '24e124136b502217', joinEui: '24e124c0002a0001', profileId: '00010001' };

describe('parseLoraWanQr', () => {
  it('reads the EUIs and the profile of a TR005 label, lower-case', () => {
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217:00010001')).toEqual(EM300);
    expect(parseLoraWanQr('lw:d0:24e124c0002a0001:24e124136b502217:00010001')).toEqual(EM300);
    expect(parseLoraWanQr('  LW:D0:24e124C0002A0001:24E124136b502217:0001000a\n')).toEqual({ ...EM300, profileId: '0001000a' });
  });

  it('keeps the serial number of the optional fields, and passes over the others', () => {
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217:00010001:O0123456789ABCDEF:S6136D19835540007:CAF2C')).toEqual({
      ...EM300,
      serial: '6136D19835540007',
    });
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217:00010001:CAF2C')).toEqual(EM300);
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217:00010001:sEM300-TH-42')).toEqual({ ...EM300, serial: 'EM300-TH-42' });
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217:00010001:S:PABC')).toEqual(EM300);
  });

  it('is null for EUIs or a profile of the wrong length, or not hexadecimal', () => {
    expect(parseLoraWanQr('LW:D0:24E124C0002A001:24E124136B502217:00010001')).toBeNull();
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B5022170:00010001')).toBeNull();
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217:0001001')).toBeNull();
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217:000100010')).toBeNull();
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B50221G:00010001')).toBeNull();
    expect(parseLoraWanQr('LW:D0:24E1-24C0-002A-0001:24E124136B502217:00010001')).toBeNull();
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217')).toBeNull();
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217:00010001::S1')).toBeNull();
    expect(parseLoraWanQr('LW:D0:24E124C0002A0001:24E124136B502217:00010001:')).toBeNull();
  });

  it('is null for other codes', () => {
    expect(parseLoraWanQr('')).toBeNull();
    expect(parseLoraWanQr('LW:D1:24E124C0002A0001:24E124136B502217:00010001')).toBeNull();
    expect(parseLoraWanQr('LX:D0:24E124C0002A0001:24E124136B502217:00010001')).toBeNull();
    expect(parseLoraWanQr('vigie:claim?serial=VIG-123456&code=ABCDEFGHJKLM')).toBeNull();
    expect(parseLoraWanQr('https://example.com/LW:D0:24E124C0002A0001:24E124136B502217:00010001')).toBeNull();
    expect(parseLoraWanQr('24E124136B502217')).toBeNull();
  });
});
