// A self-signed certificate for localhost and 127.0.0.1 (valid until 2126), for tests of TLS
// connections only: a test server presents it; a client trusts it only when told to.
export const TEST_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgcWzkF/Rqcjm1BUfu
I6rAzAr/SJAryEBki0IO0mgqG6ChRANCAARgRDNgXjV/wUuFwyizxT+Jh0CtLl/N
d51cYpgLeohgwRBQrziIHWIC4IH/zcmX5Lm13ChY8JwyyvHAIgQzupcp
-----END PRIVATE KEY-----
`;

export const TEST_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIURSx4O0WEo6OtW4lTS7soICpBKuwwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwMTAyNTgyOVoYDzIxMjYxMTA3
MDI1ODI5WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARgRDNgXjV/wUuFwyizxT+Jh0CtLl/Nd51cYpgLeohgwRBQrziIHWIC
4IH/zcmX5Lm13ChY8JwyyvHAIgQzupcpo28wbTAdBgNVHQ4EFgQU9l2HNaXWlGV1
yWWXQh/f0dD4MDcwHwYDVR0jBBgwFoAU9l2HNaXWlGV1yWWXQh/f0dD4MDcwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSAAwRQIhAKQph6xFZfcTXx3UZnKKkq3aDglei996ws2Kz/2ykuxnAiAl
HQRJR0dsZhrx6KB+EIb0uzbUcFL4MgLNDODUrs+6lA==
-----END CERTIFICATE-----
`;
