// A network failure in words a person reads ("connection refused"), not a raw errno code. The
// SDK wraps undici's error, which wraps the socket's: the innermost code says what happened.

const CODE_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset by the server',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed while sending',
  UND_ERR_SOCKET: 'the connection was closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'the server did not answer in time',
  UND_ERR_BODY_TIMEOUT: 'the server stopped sending mid-answer',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate is not trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another host",
};

/** The innermost cause of `error` in words; its raw message when the code is unknown. */
export function connectionProblem(error: unknown): string {
  let current: unknown = error;
  let code: string | undefined;
  let message = '';
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const own = (current as { code?: unknown }).code;
    if (typeof own === 'string') code = own;
    if (current.message) message = current.message;
    current = (current as { cause?: unknown }).cause;
  }
  const words = code ? CODE_WORDS[code] : undefined;
  if (words) return words;
  if (code) return `${message || 'network error'} (${code})`;
  return message || 'network error';
}
