import { describe, expect, it } from 'vitest';
import {
  checkPublicUrl,
  isPublicIpAddress,
  PUBLIC_URL_MAX_LENGTH,
} from '../../../../lambdas/domain/kernel/public-urls.js';
import { paramSchemas } from '../../../../lambdas/schemas/params/index.js';

const refused = (url: string) => {
  const check = checkPublicUrl(url);
  return check.ok ? null : check.reason;
};

describe('client-supplied URLs (SSRF)', () => {
  it.each([
    'https://cdn.example.com/logos/dealer.png',
    'https://example.com:8443/logo.png?v=2#top',
    'https://EXAMPLE.com/logo.png',
    'https://xn--mnchen-3ya.de/logo.png',
    'https://münchen.de/logo.png',
    'https://8.8.8.8/logo.png',
    'https://[2001:4860:4860::8888]/logo.png',
    'https://[2606:4700:4700::1111]/logo.png',
    'https://[::ffff:8.8.8.8]/logo.png',
    'https://[2002:0808:0808::1]/logo.png',
    'https://example.com./logo.png',
    'http://cdn.example.com/logos/dealer.png',
    'http://8.8.8.8/logo.png',
  ])('accepts %s', (url) => {
    expect(refused(url)).toBeNull();
  });

  it.each([
    ['ftp://cdn.example.com/logo.png', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['gopher://127.0.0.1:6379/_FLUSHALL', 'http or https'],
    ['data:image/png;base64,AAAA', 'http or https'],
    ['http://127.0.0.1/logo.png', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['javascript:alert(1)', 'https'],
    ['//cdn.example.com/logo.png', 'valid absolute URL'],
    ['cdn.example.com/logo.png', 'valid absolute URL'],
    ['https://', 'valid absolute URL'],
    ['https://user:secret@cdn.example.com/logo.png', 'credentials'],
    ['https://user@cdn.example.com/logo.png', 'credentials'],
    ['https://:secret@cdn.example.com/logo.png', 'credentials'],
    ['https://cdn.example.com /logo.png', 'whitespace'],
    ['https://cdn.example.com\\@127.0.0.1/', 'backslashes'],
    ['https://cdn.example.com/\nlogo.png', 'control'],
  ])('refuses %s (%s)', (url, reason) => {
    expect(refused(url)).toContain(reason);
  });

  it.each([
    // loopback, in every notation the URL parser folds into 127.0.0.1
    ['https://127.0.0.1/', 'loopback'],
    ['https://127.255.255.254/', 'loopback'],
    ['https://2130706433/', 'loopback'],
    ['https://0x7f000001/', 'loopback'],
    ['https://0x7f.0x0.0x0.0x1/', 'loopback'],
    ['https://0177.0.0.01/', 'loopback'],
    ['https://017700000001/', 'loopback'],
    ['https://127.1/', 'loopback'],
    ['https://127.0.1/', 'loopback'],
    ['https://%31%32%37.0.0.1/', 'loopback'],
    ['https://127。0。0。1/', 'loopback'],
    // private, CGNAT, link-local (cloud metadata), multicast, reserved, "this network"
    ['https://10.0.0.1/', 'private'],
    ['https://10.255.255.255/', 'private'],
    ['https://172.16.0.1/', 'private'],
    ['https://172.31.255.255/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://0xc0a80101/', 'private'],
    ['https://100.64.0.1/', 'carrier-grade NAT'],
    ['https://100.127.255.255/', 'carrier-grade NAT'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://2852039166/', 'link-local'],
    ['https://0xa9.0xfe.0xa9.0xfe/', 'link-local'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://239.255.255.250/', 'multicast'],
    ['https://240.0.0.1/', 'reserved'],
    ['https://255.255.255.255/', 'reserved'],
    ['https://0.0.0.0/', 'this network'],
    ['https://0/', 'this network'],
    ['https://192.0.2.10/', 'documentation'],
    ['https://198.18.0.1/', 'benchmarking'],
    // IPv6: loopback, unspecified, link-local, unique-local, site-local, multicast, documentation
    ['https://[::1]/', 'loopback'],
    ['https://[0:0:0:0:0:0:0:1]/', 'loopback'],
    ['https://[::]/', 'unspecified'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[febf::1]/', 'link-local'],
    ['https://[fc00::1]/', 'unique-local'],
    ['https://[fd12:3456:789a::1]/', 'unique-local'],
    ['https://[fec0::1]/', 'site-local'],
    ['https://[ff02::1]/', 'multicast'],
    ['https://[2001:db8::1]/', 'documentation'],
    ['https://[2001::1]/', 'Teredo'],
    ['https://[100::1]/', 'discard-only'],
    // IPv4 wrapped in IPv6: mapped, compatible, NAT64, 6to4
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[::ffff:7f00:1]/', 'loopback'],
    ['https://[0:0:0:0:0:ffff:169.254.169.254]/', 'link-local'],
    ['https://[::ffff:10.0.0.1]/', 'private'],
    ['https://[::127.0.0.1]/', 'loopback'],
    ['https://[64:ff9b::192.168.0.1]/', 'private'],
    ['https://[2002:7f00:1::]/', 'loopback'],
  ])('refuses the address in %s (%s)', (url, label) => {
    expect(refused(url)).toMatch(new RegExp(`must not point at an? .*${label}`));
  });

  it.each([
    'https://localhost/',
    'https://LOCALHOST/',
    'https://localhost./',
    'https://api.localhost/',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://db.internal/',
    'https://printer.local/',
    'https://nas.home.arpa/',
    'https://1.0.0.127.in-addr.arpa/',
    'https://%6c%6f%63%61%6c%68%6f%73%74/',
    'https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/',
  ])('refuses the local name in %s', (url) => {
    expect(refused(url)).toMatch(/local name|address its name spells/);
  });

  it.each(['https://metadata/', 'https://intranet/logo.png', 'https://kubernetes/'])(
    'refuses the single-label host in %s',
    (url) => {
      expect(refused(url)).toContain('fully qualified');
    },
  );

  it.each(['https://127.0.0.1.nip.io/', 'https://10.0.0.1.sslip.io/', 'https://app.localtest.me/', 'https://lvh.me/'])(
    'refuses the address-echo DNS name in %s',
    (url) => {
      expect(refused(url)).toContain('address its name spells');
    },
  );

  it('refuses overlong URLs', () => {
    expect(refused(`https://cdn.example.com/${'a'.repeat(PUBLIC_URL_MAX_LENGTH)}`)).toContain('at most');
  });

  it('gives fetchers the same judgement on resolved addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.0.10',
      '100.100.100.200',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::5',
      '::ffff:10.0.0.1',
      '[::ffff:127.0.0.1]',
      'ff02::1',
    ]) {
      expect(isPublicIpAddress(address), address).toBe(false);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
      expect(isPublicIpAddress(address), address).toBe(true);
    }
    expect(isPublicIpAddress('not an address')).toBe(false);
    expect(isPublicIpAddress('1.2.3')).toBe(false);
  });
});

describe('the URL parameters use the check', () => {
  it.each(['logo', 'top_banner_url', 'bottom_banner_url'])(
    'render.background %s refuses an internal URL with url_not_public and names the param',
    (name) => {
      const outcome = paramSchemas['render.background'].safeParse({
        [name]: 'https://169.254.169.254/latest/meta-data/',
      });
      expect(outcome.success).toBe(false);
      const issue = outcome.error!.issues[0]!;
      expect(issue.path).toEqual([name]);
      expect(issue.code).toBe('custom');
      expect((issue as { params?: { error_code?: string } }).params?.error_code).toBe('url_not_public');
      expect(issue.message).toContain(name);
    },
  );

  it('render.plate logo uses it too', () => {
    expect(paramSchemas['render.plate'].safeParse({ mode: 'logo', logo: 'https://localhost/logo.png' }).success).toBe(
      false,
    );
    expect(
      paramSchemas['render.plate'].safeParse({ mode: 'logo', logo: 'http://cdn.example.com/logo.png' }).success,
    ).toBe(true);
    expect(
      paramSchemas['render.plate'].safeParse({ mode: 'logo', logo: 'https://cdn.example.com/logo.png' }).success,
    ).toBe(true);
  });
});
