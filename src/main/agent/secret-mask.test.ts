// Issue 10, "Secrets stay out of the model's view": a table of secret shapes that must be masked
// and of look-alikes that must not, and every pattern over 100 KB of input built to make a
// backtracking engine stall. Secrets are generated from a seed at run time, so no string in this
// file is a credential a scanner would flag.
import { describe, expect, it } from 'vitest';
import { seededRandom, suiteSeed } from '../../test-support/seeded-random';
import { compiledPatterns, findSecrets, maskSecrets } from './secret-mask';
import { SECRET_PATTERNS } from './secret-patterns';

const random = seededRandom(suiteSeed(1011));
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;

/** `n` characters from `alphabet`, starting with an upper case letter, a digit and a lower one. */
function token(n: number, alphabet = ALNUM): string {
  const seed = alphabet === ALNUM ? 'Q7k' : '';
  let out = seed;
  while (out.length < n) out += alphabet[random.int(alphabet.length)];
  return out.slice(0, n);
}

function pem(kind: string, bytes = 1200): string {
  const body = token(bytes, B64)
    .match(/.{1,64}/g)!
    .join('\n');
  return `-----BEGIN ${kind}-----\n${body}\n-----END ${kind}-----`;
}

/** [name, text around it, the secret itself]: the secret must be gone from what the model sees. */
const SECRETS: readonly (readonly [string, () => { text: string; secret: string }])[] = [
  ['RSA private key', () => only(pem('RSA PRIVATE KEY'))],
  ['EC private key', () => only(pem('EC PRIVATE KEY', 300))],
  ['OpenSSH private key', () => only(pem('OPENSSH PRIVATE KEY'))],
  ['PKCS#8 private key', () => only(pem('PRIVATE KEY'))],
  ['encrypted private key', () => only(pem('ENCRYPTED PRIVATE KEY'))],
  ['PGP private key block', () => only(pem('PGP PRIVATE KEY BLOCK'))],
  [
    'a private key cut short by the output bounds',
    () => {
      const cut = pem('PRIVATE KEY').slice(0, 600);
      return { text: `${cut}\n\n[… 12,345 characters cut from the middle …]`, secret: cut };
    },
  ],
  [
    'GCP service account JSON',
    () => {
      const key = pem('PRIVATE KEY').replace(/\n/g, '\\n');
      return {
        text: `{\n  "type": "service_account",\n  "project_id": "demo",\n  "private_key_id": "${token(40, HEX)}",\n  "private_key": "${key}\\n",\n  "client_email": "x@demo.iam.gserviceaccount.com"\n}`,
        secret: key,
      };
    },
  ],
  [
    'GCP service account JSON on one line',
    () => {
      const key = pem('PRIVATE KEY').replace(/\n/g, '\\n');
      return { text: `{"type":"service_account","private_key":"${key}","x":1}`, secret: key };
    },
  ],
  ['AWS access key id', () => inText(`AKIA${token(16, UPPER + DIGITS)}`)],
  ['AWS temporary access key id', () => inText(`ASIA${token(16, UPPER + DIGITS)}`)],
  [
    'AWS secret key in a credentials file',
    () => assign('[default]\naws_secret_access_key = ', token(40, B64)),
  ],
  [
    'AWS STS JSON',
    () => assign('{\n  "Credentials": {\n    "SecretAccessKey": "', token(40, B64), '",'),
  ],
  [
    'Azure storage connection string',
    () =>
      assign(
        'DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=',
        `${token(86, B64)}==`,
        ';',
      ),
  ],
  ['OpenAI key (legacy)', () => inText(`sk-${token(48)}`)],
  ['OpenAI project key', () => inText(`sk-proj-${token(100, `${ALNUM}_-`)}`)],
  ['OpenAI service account key', () => inText(`sk-svcacct-${token(60, `${ALNUM}_-`)}`)],
  ['DeepSeek key', () => inText(`sk-${token(32, HEX)}`)],
  ['Anthropic key', () => inText(`sk-ant-api03-${token(93, `${ALNUM}_-`)}AA`)],
  ['OpenRouter key', () => inText(`sk-or-v1-${token(64, HEX)}`)],
  ['Stripe live secret key', () => inText(`sk_live_${token(99)}`)],
  ['Stripe restricted key', () => inText(`rk_live_${token(99)}`)],
  ['GitHub classic token', () => inText(`ghp_${token(36)}`)],
  ['GitHub fine-grained token', () => inText(`github_pat_${token(82, `${ALNUM}_`)}`)],
  ['GitHub OAuth token', () => inText(`gho_${token(36)}`)],
  ['GitLab token', () => inText(`glpat-${token(20, `${ALNUM}_-`)}`)],
  ['Slack bot token', () => inText(`xoxb-${token(11, DIGITS)}-${token(13, DIGITS)}-${token(24)}`)],
  ['Slack user token', () => inText(`xoxp-${token(11, DIGITS)}-${token(12, DIGITS)}-${token(32)}`)],
  [
    'Slack webhook',
    () =>
      inText(
        `https://hooks.slack.com/services/T${token(8, UPPER + DIGITS)}/B${token(10, UPPER + DIGITS)}/${token(24)}`,
      ),
  ],
  ['Google API key', () => inText(`AIza${token(35, `${ALNUM}_-`)}`)],
  ['Hugging Face token', () => inText(`hf_${token(34)}`)],
  ['Groq key', () => inText(`gsk_${token(52)}`)],
  ['npm token', () => inText(`npm_${token(36)}`)],
  ['registry auth token in .npmrc', () => assign('//registry.example.org/:_authToken=', token(40))],
  ['PyPI token', () => inText(`pypi-AgEIcHlwaS5vcmc${token(70, `${ALNUM}_-`)}`)],
  ['DigitalOcean token', () => inText(`dop_v1_${token(64, HEX)}`)],
  ['SendGrid key', () => inText(`SG.${token(22, `${ALNUM}_-`)}.${token(43, `${ALNUM}_-`)}`)],
  ['Shopify token', () => inText(`shpat_${token(32, HEX)}`)],
  ['Telegram bot token', () => inText(`${token(10, DIGITS)}:AA${token(33, `${ALNUM}_-`)}`)],
  [
    'JSON web token',
    () =>
      inText(
        `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI${token(30, `${ALNUM}_-`)}.${token(43, `${ALNUM}_-`)}`,
      ),
  ],
  ['opaque bearer token', () => assign('Authorization: Bearer ', token(40, `${ALNUM}._-`))],
  ['basic auth header', () => assign('Authorization: Basic ', `${token(30, B64)}==`)],
  [
    'password in a database URL',
    () => assign('DATABASE_URL=postgres://app:', `${token(20)}!x`, '@db.internal:5432/app'),
  ],
  ['.env API key', () => assign('API_KEY=', token(32))],
  ['exported token', () => assign('export GITHUB_TOKEN="', token(40), '"')],
  ['YAML password', () => assign('database:\n  password: ', 'hunter2-42x')],
  ['JSON client secret', () => assign('{"client_secret": "', token(24), '"}')],
  ['compose password', () => assign('environment:\n  - POSTGRES_PASSWORD=', 'S3cure-pa55')],
  ['Rails secret key base', () => assign('SECRET_KEY_BASE=', token(128, HEX))],
  ['Django secret key', () => assign("SECRET_KEY = '", `django-insecure-${token(40)}`, "'")],
];

function only(secret: string): { text: string; secret: string } {
  return { text: `cat key\n${secret}\n$ `, secret };
}
function inText(secret: string): { text: string; secret: string } {
  return { text: `the value is ${secret} (from the log)\nnext line`, secret };
}
function assign(before: string, secret: string, after = ''): { text: string; secret: string } {
  return { text: `# config\n${before}${secret}${after}\nOTHER=1\n`, secret };
}

/** Text that looks like a secret and is not one: left exactly as it was. */
const LOOK_ALIKES: readonly (readonly [string, () => string])[] = [
  ['a git SHA', () => `commit ${token(40, HEX)}`],
  ['a SHA-256', () => `sha256sum: ${token(64, HEX)}  file.tar.gz`],
  ['an MD5', () => `md5 ${token(32, HEX)}`],
  ['a UUID', () => 'request id 3f2b8c1e-9a4d-4e7b-8c2f-1d5e6a7b8c9d'],
  ['a base64 image', () => `<img src="data:image/png;base64,${token(20000, B64)}==">`],
  ['a base64 blob in JSON', () => `{"data": "${token(4000, B64)}="}`],
  ['sk-... in docs', () => 'Set OPENAI_API_KEY to your key (it starts with sk-...).'],
  ['an x-ed out key', () => 'OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  ['a your-key placeholder', () => 'OPENAI_API_KEY=sk-your-api-key-here-please'],
  ['a kebab-case slug after sk-', () => 'see sk-learn-tutorials-for-beginners-2 for details'],
  ['an .env.example line', () => 'ANTHROPIC_API_KEY=\nOPENAI_API_KEY=<your key>'],
  ['a variable reference', () => 'API_KEY=${API_KEY}\nTOKEN=$GITHUB_TOKEN'],
  ['a JS config reference', () => '  apiKey: process.env.OPENAI_API_KEY,'],
  ['a Python lookup', () => 'api_key = os.environ["API_KEY"]'],
  ["AWS's documented example key id", () => 'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE'],
  [
    "AWS's documented example secret",
    () => 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  ],
  ['a public key block', () => pem('PUBLIC KEY')],
  ['a certificate', () => pem('CERTIFICATE')],
  [
    'a private key placeholder in docs',
    () => '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
  ],
  ['an empty password', () => 'PASSWORD=\npassword: ""'],
  ['a token lifetime', () => 'TOKEN_TTL=3600\nACCESS_TOKEN_EXPIRES=86400'],
  ['a primary key', () => 'PRIMARY_KEY=id\nSORT_KEY=created_at'],
  ['a key file path', () => 'KEY_FILE=/etc/ssl/private/server.key\nSSH_KEY_PATH=~/.ssh/id_ed25519'],
  ['a token URL', () => 'TOKEN_URL=https://auth.example.org/oauth/token'],
  ['a bearer token in prose', () => 'Send a Bearer token in the Authorization header.'],
  ['a bearer placeholder', () => 'Authorization: Bearer <token>\nAuthorization: Bearer $TOKEN'],
  ['a URL with a user only', () => 'git clone https://someone@github.com/org/repo.git'],
  ['an scp-style git remote', () => 'git@github.com:org/repo.git'],
  ['a documented database URL', () => 'postgres://user:password@localhost:5432/app'],
  ['a database URL from a variable', () => 'postgres://app:${DB_PASSWORD}@db:5432/app'],
  ['an x-ed out GitHub token', () => `GITHUB_TOKEN=ghp_${'x'.repeat(36)}`],
  ['a Slack placeholder', () => 'SLACK_TOKEN=xoxb-your-token'],
  ['a JWT header alone', () => 'alg header: eyJhbGciOiJIUzI1NiJ9'],
  ['a package-lock integrity', () => `"integrity": "sha512-${token(86, B64)}=="`],
  ['a container digest', () => `image@sha256:${token(64, HEX)}`],
  ['a Stripe publishable key', () => `STRIPE_PUBLISHABLE=pk_live_${token(24)}`],
  ['an SSH public key', () => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${token(43, B64)} me@host`],
  ['CSS colours', () => '.a { color: #1a2b3c; background: #ffeedd; }'],
  ['code that fetches a token', () => 'const token = await getToken(scope);'],
  ['a semantic version', () => 'version: v1.2.3-rc.1+build.5'],
  ['a secret name', () => 'SECRET_NAME=prod/db'],
  ['a key in prose', () => 'The key: press Enter to continue, or Escape.'],
  ['a Google key prefix in prose', () => 'Google keys start with AIza and are 39 characters long.'],
  ['a masked secret already', () => 'API_KEY=[secret masked: value of API_KEY, 32 chars]'],
  ['an npm script', () => '"scripts": { "test": "vitest run", "build": "tsc -p ." }'],
];

describe('secret shapes', () => {
  it('are at least 40, and so are the look-alikes', () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(40);
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(SECRETS)('masks %s', (_, make) => {
    const { text, secret } = make();
    const { masked, secrets } = maskSecrets(text);
    expect(secrets.length).toBeGreaterThan(0);
    expect(masked).not.toContain(secret);
    // Not even a long run of it is left.
    expect(masked).not.toContain(secret.slice(4, 20));
    expect(masked).toMatch(/\[secret masked: [^\]]+, \d+ chars\]/);
    // Masking what is already masked changes nothing.
    expect(maskSecrets(masked).masked).toBe(masked);
  });

  it.each(LOOK_ALIKES)('leaves %s alone', (_, make) => {
    const text = make();
    const { masked, secrets } = maskSecrets(text);
    expect(secrets).toEqual([]);
    expect(masked).toBe(text);
  });
});

describe('maskSecrets', () => {
  it('keeps the name, masks the value, and says what and how long', () => {
    const key = token(32);
    const { masked, secrets } = maskSecrets(`API_KEY=${key}\nDEBUG=1`);
    expect(masked).toBe('API_KEY=[secret masked: value of API_KEY, 32 chars]\nDEBUG=1');
    expect(secrets).toEqual([{ kind: 'value of API_KEY', chars: 32 }]);
  });

  it('counts positions in UTF-16 like the rest of the text, emoji before it or not', () => {
    const id = `AKIA${token(16, UPPER + DIGITS)}`;
    expect(maskSecrets(`🙂🙂 ${id} ✓`).masked).toBe(
      '🙂🙂 [secret masked: AWS access key, 20 chars] ✓',
    );
  });

  it('masks each of several secrets once, the most specific shape winning', () => {
    const text = `OPENAI_API_KEY=sk-proj-${token(60)}\nGH=${'ghp_'}${token(36)}\n`;
    const found = findSecrets(text).map((m) => m.patternId);
    expect(found).toEqual(['openai-key', 'github-token']);
  });
});

describe('every pattern over 100 KB of hostile input', () => {
  const SIZE = 100 * 1024;
  const fill = (unit: string): string => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
  /** Inputs that make backtracking engines stall: a prefix, then a long almost-match. */
  const HOSTILE: readonly string[] = [
    fill('-----BEGIN PRIVATE KEY-----'),
    `-----BEGIN RSA PRIVATE KEY-----${fill('A')}`,
    `-----BEGIN PRIVATE KEY-----${fill('\\n')}`,
    `"private_key": "${fill('\\\\')}`,
    fill('AKIA'),
    `sk-${fill('a-')}`,
    fill('sk-'),
    `sk-ant-api03-${fill('-')}`,
    `bearer ${fill('a')}`,
    fill('Bearer '),
    `Authorization: Basic ${fill('A')}`,
    `a://${fill('b:')}`,
    `a://b:${fill('c')}`,
    fill('eyJ.'),
    `eyJ${fill('a')}.eyJ`,
    fill('A='),
    fill('a: '),
    `${fill(' ')}X=`,
    `export ${fill('"')}`,
    `KEY=${fill('"')}`,
    fill('xoxb-'),
    fill('hooks.slack.com/services/T'),
    `AccountKey=${fill('A')}`,
    fill(':_authToken='),
    fill('0123456789:AA'),
    fill('SG.'),
    fill('KEY="'),
    fill('"password":"'),
    `TOKEN=${fill('a=')}`,
    fill('İKEY='),
  ];

  it.each(SECRET_PATTERNS.map((p) => p.id))('%s scans each of them to the end', (id) => {
    const compiled = compiledPatterns().find((c) => c.pattern.id === id);
    expect(compiled).toBeDefined();
    for (const input of HOSTILE) {
      expect(input.length).toBeGreaterThanOrEqual(SIZE);
      const matcher = compiled!.regex.matcher(input);
      let matches = 0;
      while (matcher.find() && matches < SIZE) matches++;
      expect(matches).toBeLessThan(SIZE);
    }
  });

  it('the whole scan of each finishes and masks what it should', () => {
    for (const input of HOSTILE) maskSecrets(input);
    const key = pem('PRIVATE KEY');
    expect(maskSecrets(`${fill('x')}\n${key}\n${fill('y')}`).secrets).toEqual([
      { kind: 'private key', chars: key.length },
    ]);
  });
});

describe('positions', () => {
  it('stay right where lower-casing changes the length of the text before the secret', () => {
    const key = token(32);
    const text = `İİİ note\nAPI_KEY=${key}\n`;
    expect(maskSecrets(text).masked).toBe(
      'İİİ note\nAPI_KEY=[secret masked: value of API_KEY, 32 chars]\n',
    );
  });
});
