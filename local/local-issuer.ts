import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  SignJWT,
} from 'jose';
import type { Role } from '../lambdas/domain/access/member.js';
import { seedUserId } from '../lambdas/domain/access/members.js';
import { type Clock, epochSeconds } from '../lambdas/domain/kernel/clock.js';

/** The `aud` of dashboard tokens, locally and (by default) in the stack. */
export const MANAGEMENT_AUDIENCE = 'automotive-inference-mgmt';
/** the maximum lifetime (docs/internals/management.md): `exp` is at most 15 minutes after `iat` */
export const DASHBOARD_TOKEN_SECONDS = 15 * 60;
/** under `.local/`: written by `npm start`, read by `npm run token` */
export const SIGNING_KEY_FILENAME = 'jwt-signing-key.json';
const ALGORITHM = 'ES256';

/** The local runtime's signing key: an ES256 pair named by its JWK thumbprint. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

interface StoredKey {
  kid: string;
  private_jwk: JWK;
  public_jwk: JWK;
}

async function fromStored(stored: StoredKey): Promise<SigningKey> {
  return {
    kid: stored.kid,
    privateKey: (await importJWK(stored.private_jwk, ALGORITHM)) as CryptoKey,
    publicJwk: stored.public_jwk,
  };
}

async function generate(): Promise<StoredKey> {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    private_jwk: { ...(await exportJWK(privateKey)), kid, alg: ALGORITHM, use: 'sig' },
    public_jwk: { ...publicJwk, kid, alg: ALGORITHM, use: 'sig' },
  };
}

/**
 * A fresh key pair, kept in memory only (tests), or loaded from / written to `file` (npm start),
 * so `npm run token` in another process signs with the key the server publishes.
 */
export async function loadOrCreateSigningKey(file?: string): Promise<SigningKey> {
  if (file && existsSync(file)) return fromStored(JSON.parse(readFileSync(file, 'utf8')) as StoredKey);
  const stored = await generate();
  if (file) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
  return fromStored(stored);
}

export async function readSigningKey(file: string): Promise<SigningKey> {
  return fromStored(JSON.parse(readFileSync(file, 'utf8')) as StoredKey);
}

export function publicKeySet(key: SigningKey): JSONWebKeySet {
  return { keys: [key.publicJwk] };
}

export interface TokenRequest {
  issuer: string;
  audience?: string;
  orgId: string;
  role: Role;
  userId?: string;
  nowSeconds?: number;
  lifetimeSeconds?: number;
}

/** `sub` defaults to the organisation's development member of the role (local/development-members.ts). */
export function signDashboardToken(key: SigningKey, request: TokenRequest): Promise<string> {
  const now = request.nowSeconds ?? Math.floor(Date.now() / 1000);
  return new SignJWT({ org_id: request.orgId, role: request.role })
    .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setIssuer(request.issuer)
    .setAudience(request.audience ?? MANAGEMENT_AUDIENCE)
    .setSubject(request.userId ?? seedUserId(request.orgId, request.role))
    .setIssuedAt(now)
    .setExpirationTime(now + (request.lifetimeSeconds ?? DASHBOARD_TOKEN_SECONDS))
    .sign(key.privateKey);
}

/** The local runtime is its own token issuer: `iss` is its base URL, its key set is served at /.well-known/jwks.json. */
export interface LocalIssuer {
  issuer: string;
  audience: string;
  key: SigningKey;
  /** a 15-minute dashboard token, dated by the runtime's clock */
  token(orgId: string, role: Role, overrides?: Partial<TokenRequest>): Promise<string>;
}

export function localIssuer(
  baseUrl: string,
  key: SigningKey,
  clock: Clock,
  audience = MANAGEMENT_AUDIENCE,
): LocalIssuer {
  return {
    issuer: baseUrl,
    audience,
    key,
    token: (orgId, role, overrides = {}) =>
      signDashboardToken(key, {
        issuer: baseUrl,
        audience,
        orgId,
        role,
        nowSeconds: epochSeconds(clock),
        ...overrides,
      }),
  };
}
