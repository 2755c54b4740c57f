import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import type { KeyObject } from "node:crypto";
import { signProxyPayload } from "../../server/test/fake-discord";
import type { Frame, FrameLocator, Page } from "playwright-core";

/**
 * A stand-in for Discord's page around an activity, served at http://localhost:3333 (an origin the
 * Embedded App SDK accepts messages from) on a loopback address of the test file's own. For each player it iframes the activity with frame_id,
 * instance_id and platform, and answers the SDK's handshake, AUTHORIZE (a code the fake OAuth server
 * maps to that user), AUTHENTICATE and the commands the client uses, each with the exact response
 * shape of the SDK's schema (@discord/embedded-app-sdk 2.5: `generated/schemas`, `schema/responses`):
 * participants (the players of this page who authenticated, each with the avatar hash the fake OAuth server gives, pushed on ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE
 * to subscribers), SET_ACTIVITY (echoes the activity with the name and type Discord adds), OPEN_INVITE_DIALOG
 * (INVALID_CHANNEL 4005 in a DM, as Discord answers), SHARE_LINK, SET_ORIENTATION_LOCK_STATE (null), and
 * emits ACTIVITY_LAYOUT_MODE_UPDATE on `fakeDiscord.layout(mode)`; `fakeDiscord.unload(i)` and `reload(i)` close and open
 * the ith player's activity again. Every command is logged on
 * `window.fakeDiscord.log` for assertions. Query options: `dm=1` launches in a DM (no guild), `custom_id`
 * as from a share link; a player "id:Name:Nick" has a guild nickname.
 */
export const HOST_ORIGIN = "http://localhost:3333";

/** The `i`th activity frame of the host page, as it is now (a reloaded frame is a new one). */
export const frameOf = async (page: Page, i: number): Promise<Frame> => (await (await page.$$("iframe"))[i]!.contentFrame())!;
const PORT = 3333;

const HOST_PAGE = String.raw`<!doctype html>
<html><head><meta charset="utf-8"><title>Fake Discord</title>
<style>body{margin:0;display:flex;gap:8px;background:#111}iframe{border:0;flex:1;height:100vh}</style></head>
<body><script>
const q = new URLSearchParams(location.search);
const ACTIVITY = q.get('activity'), ACTIVITY_ORIGIN = new URL(ACTIVITY).origin;
const INSTANCE_ID = q.get('instance_id') || 'i-test-instance';
const CODE = q.get('code');
const DM = q.get('dm') === '1';
const CUSTOM_ID = q.get('custom_id');
// players: "id:Name,id:Name:Nickname"
const players = (q.get('players') || '100000000000000001:Alice').split(',').map(p => { const [id, name, nick] = p.split(':'); return { id, name, nick }; });
// Every user has the avatar hash the fake OAuth server gives them (server/test/fake-discord.ts): "abc123".
const AVATAR = 'abc123';
const user = p => ({ id: p.id, username: p.name.toLowerCase(), discriminator: '0', global_name: p.name, avatar: AVATAR, bot: false, flags: 0, public_flags: 0 });
// GetActivityInstanceConnectedParticipantsResponseSchema: flags and bot required, nickname optional (a string when present)
const participant = p => ({ id: p.id, username: p.name.toLowerCase(), discriminator: '0', global_name: p.name, avatar: AVATAR, bot: false, flags: 0,
  ...(p.nick ? { nickname: p.nick } : {}) });
const connected = new Map();
const participants = () => ({ participants: [...connected.values()].map(participant) });
const frames = new Map();
const log = [];
const send = (win, p) => win.postMessage([1, p], ACTIVITY_ORIGIN);
const reply = (win, cmd, nonce, data) => send(win, { cmd, evt: null, nonce, data });
const fail = (win, cmd, nonce, code, message) => send(win, { cmd, evt: 'ERROR', nonce, data: { code, message } });
const dispatchAll = (evt, data) => { for (const [w, f] of frames) if (f.subs.has(evt)) send(w, { cmd: 'DISPATCH', evt, nonce: null, data }); };
window.fakeDiscord = { frames, log, dispatchAll, connected,
  /** A player leaves the call: gone from the participants, and the subscribers hear it. */
  leave(id) { connected.delete(id); dispatchAll('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', participants()); },
  /** Discord changes the layout (0 FOCUSED, 1 PIP, 2 GRID): ACTIVITY_LAYOUT_MODE_UPDATE to subscribers. */
  layout(mode) { dispatchAll('ACTIVITY_LAYOUT_MODE_UPDATE', { layout_mode: mode }); },
  /** The player's frame loads the activity again (after unload: the player comes back). */
  reload(i) { const f = document.querySelectorAll('iframe')[i]; f.src = f.dataset.src; },
  /** The player's frame leaves the activity (a blank page): its connections drop, as when a tab closes. */
  unload(i) { document.querySelectorAll('iframe')[i].src = 'about:blank'; } };
addEventListener('message', ev => {
  const f = frames.get(ev.source);
  if (!f || ev.origin !== ACTIVITY_ORIGIN || !Array.isArray(ev.data)) return;
  const [op, p] = ev.data;
  if (op === 0) {
    log.push({ player: f.player.id, cmd: 'HANDSHAKE', args: p });
    return send(ev.source, { cmd: 'DISPATCH', evt: 'READY', nonce: null,
      data: { v: 1, config: { cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api', environment: 'production' },
              user: { id: f.player.id, username: f.player.name.toLowerCase(), discriminator: '0' } } });
  }
  if (op !== 1) return;
  const { cmd, args, nonce, evt } = p;
  if (cmd !== 'CAPTURE_LOG') log.push({ player: f.player.id, cmd, args: args || null });
  switch (cmd) {
    case 'AUTHORIZE': return reply(ev.source, cmd, nonce, { code: CODE || ('ok:' + f.player.id + ':' + f.player.name) });
    case 'AUTHENTICATE':
      reply(ev.source, cmd, nonce, { access_token: args.access_token, user: user(f.player), scopes: ['identify', 'guilds', 'rpc.activities.write'],
        expires: new Date(Date.now() + 6048e5).toISOString(), application: { id: 'client-id', name: 'Casino', description: '', icon: null } });
      connected.set(f.player.id, f.player);
      return dispatchAll('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', participants());
    case 'GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS': return reply(ev.source, cmd, nonce, participants());
    // SetActivityResponse = Activity: name and type are required
    case 'SET_ACTIVITY': return reply(ev.source, cmd, nonce, { name: 'Casino', type: 0, ...args.activity });
    // EmptyResponse (null); openInviteDialog.ts: INVALID_CHANNEL in a (G)DM
    case 'OPEN_INVITE_DIALOG': return DM ? fail(ev.source, cmd, nonce, 4005, 'Invalid channel') : reply(ev.source, cmd, nonce, null);
    case 'SHARE_LINK': return reply(ev.source, cmd, nonce, { success: true, didCopyLink: false, didSendMessage: true });
    // EmptyResponse (null); the args are recorded in the log
    case 'SET_ORIENTATION_LOCK_STATE': return reply(ev.source, cmd, nonce, null);
    case 'SUBSCRIBE': f.subs.add(evt); return reply(ev.source, cmd, nonce, { evt });
    case 'UNSUBSCRIBE': f.subs.delete(evt); return reply(ev.source, cmd, nonce, { evt });
    case 'CAPTURE_LOG': return reply(ev.source, cmd, nonce, null);
    default: return send(ev.source, { cmd, evt: 'ERROR', nonce, data: { code: 4002, message: 'unsupported in the fake host: ' + cmd } });
  }
});
for (const player of players) {
  const u = new URL(ACTIVITY);
  const params = DM
    ? { frame_id: crypto.randomUUID(), instance_id: INSTANCE_ID, platform: q.get('platform') || 'desktop',
        channel_id: '912954213460484117', location_id: 'pc-912954213460484117' }
    : { frame_id: crypto.randomUUID(), instance_id: INSTANCE_ID, platform: q.get('platform') || 'desktop',
        guild_id: '912952092627435520', channel_id: '912954213460484116', location_id: 'gc-912952092627435520-912954213460484116' };
  if (CUSTOM_ID) params.custom_id = CUSTOM_ID;
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  const ifr = document.createElement('iframe');
  ifr.src = u.href; ifr.dataset.src = u.href; ifr.title = 'Activity of ' + player.name;
  document.body.appendChild(ifr);
  frames.set(ifr.contentWindow, { player, subs: new Set() });
}
</script></body></html>`;

export interface FakeHost {
  /** The loopback address the host listens on: the browser of its test file resolves localhost to it. */
  address: string;
  /** The host page for these players ("id:Name") in one activity instance. */
  url(
    activity: string,
    options: { players: string[]; instanceId?: string; code?: string; platform?: string; dm?: boolean; customId?: string },
  ): string;
  close(): Promise<void>;
}

const hostUrl: FakeHost["url"] = (activity, { players, instanceId = "i-test-instance", code, platform, dm, customId }) => {
  const q = new URLSearchParams({ activity, players: players.join(","), instance_id: instanceId });
  if (code) q.set("code", code);
  if (platform) q.set("platform", platform);
  if (dm) q.set("dm", "1");
  if (customId) q.set("custom_id", customId);
  return `${HOST_ORIGIN}/host.html?${q}`;
};

/** A loopback address of 127/8 other than 127.0.0.1, drawn at random. */
const randomLoopback = (): string => {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return `127.${byte()}.${byte()}.${byte()}`;
};

const listen = (server: Server, address: string): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(PORT, address, () => {
      server.off("error", reject);
      resolve();
    });
  });

/**
 * The host page of one test file, on port 3333 (the SDK fixes the origin) of a loopback address of its
 * own, so test files run side by side, and beside other runs on the machine, each with its own host:
 * the file's Chromium resolves localhost to that address (`launchChromium`). FAKE_DISCORD_HOST_ADDRESS
 * fixes the address (the host then waits while another run holds it).
 */
export async function startFakeHost(): Promise<FakeHost> {
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith("/host.html")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(HOST_PAGE);
      return;
    }
    res.writeHead(404).end();
  });
  const fixed = process.env.FAKE_DISCORD_HOST_ADDRESS;
  let address = fixed ?? randomLoopback();
  for (let tries = 1; ; tries++) {
    try {
      await listen(server, address);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || tries >= 240) throw error;
      if (fixed) await new Promise((r) => setTimeout(r, 500));
      else address = randomLoopback();
    }
  }
  return {
    address,
    url: hostUrl,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The terms dialog a Discord player meets on first launch, inside the activity's frame: both boxes ticked, accepted, gone. */
export async function acceptTerms(app: FrameLocator) {
  const dialog = app.getByRole("dialog", { name: "Updated Terms & Privacy Policy" });
  await dialog.waitFor({ timeout: 30_000 });
  await dialog.getByRole("checkbox", { name: /Terms of Service/ }).click();
  await dialog.getByRole("checkbox", { name: /Privacy Policy/ }).click();
  await dialog.getByRole("button", { name: "Accept and Continue" }).click();
  await dialog.waitFor({ state: "detached" });
}

export interface FakeProxy {
  /** Where the host iframes the activity: this proxy's origin. */
  url: string;
  /** Every request it forwarded: method, path, and whether it was an upgrade to a WebSocket. */
  forwarded: { method: string; path: string; upgrade: boolean }[];
  close(): Promise<void>;
}

/**
 * A stand-in for Discord's activity proxy in front of the app server: every request and WebSocket
 * upgrade is forwarded, with the headers Discord's proxy adds for the signed-in user
 * (X-Signature-Ed25519, X-Signature-Timestamp, X-Discord-Proxy-Payload), signed with `privateKey`
 * (a test passes another key than the server's to forge). The Host header passes through, as the
 * activity's own origin is the proxy's.
 */
export async function startFakeProxy(
  target: string,
  options: { privateKey: KeyObject; applicationId: string; userId: string },
): Promise<FakeProxy> {
  const upstream = new URL(target);
  const forwarded: FakeProxy["forwarded"] = [];
  const signed = (headers: IncomingHttpHeaders): IncomingHttpHeaders => {
    const now = Math.floor(Date.now() / 1000);
    return {
      ...headers,
      ...signProxyPayload(options.privateKey, {
        application_id: options.applicationId,
        user_id: options.userId,
        created_at: now,
        expires_at: now + 900,
      }),
    };
  };
  const server: Server = createServer((req, res) => {
    forwarded.push({ method: req.method ?? "GET", path: req.url ?? "/", upgrade: false });
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: signed(req.headers) },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  const upgraded = new Set<{ destroy(): void }>();
  server.on("upgrade", (req, socket, head) => {
    upgraded.add(socket);
    socket.once("close", () => upgraded.delete(socket));
    forwarded.push({ method: req.method ?? "GET", path: req.url ?? "/", upgrade: true });
    const out = connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (const [name, value] of Object.entries(signed(req.headers))) {
        for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) lines.push(`${name}: ${v}`);
      }
      out.write(lines.join("\r\n") + "\r\n\r\n");
      if (head.length) out.write(head);
      out.pipe(socket);
      socket.pipe(out);
    });
    const drop = () => {
      out.destroy();
      socket.destroy();
    };
    out.on("error", drop);
    socket.on("error", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise((resolve) => {
        for (const socket of upgraded) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
