import { MINIMUM_AGE } from "@casino/common/constants";
import { LegalPage, type LegalSection } from "./LegalPage";

const SECTIONS: LegalSection[] = [
  {
    title: "Who We Are and What This Covers",
    body: (
      <p>
        This policy explains what the casino, a free virtual-coin game for Discord and the browser, collects about you, why, and what you
        can do about it. It covers the game itself, not Discord, whose own privacy policy applies to your Discord account.
      </p>
    ),
  },
  {
    title: "Information We Collect",
    body: (
      <>
        <ul>
          <li>
            From Discord, when you sign in: your user id, username, display name and avatar, and the list of your servers (the guilds
            scope).
          </li>
          <li>
            From play: your coin balance and its ledger, the games you play with their bets and outcomes, daily spin times, tags, records.
          </li>
          <li>Your settings: theme, anonymous mode, reminder preference and the version of the terms you accepted.</li>
          <li>Suggestions you send us.</li>
          <li>Technical data needed to run the service: IP address for rate limiting and security, and error logs.</li>
        </ul>
        <p>We never collect payment details: nothing in the casino is for sale.</p>
      </>
    ),
  },
  {
    title: "How We Use Information",
    body: (
      <p>
        To run the games and keep your balance, to show leaderboards and tags, to prove that outcomes are fair, to remind you of your daily
        spin if you ask us to, to prevent abuse such as automated play, and to improve the casino from your suggestions.
      </p>
    ),
  },
  {
    title: "Leaderboards and Anonymous Mode",
    body: (
      <p>
        Signed-in players appear on leaderboards with their username, avatar, balance, records and active tag. Switch on anonymous mode to
        appear as &quot;Anonymous&quot; to everyone else; you still see your own name. Guests are not ranked.
      </p>
    ),
  },
  {
    title: "Guests and Data on Your Device",
    body: (
      <p>
        Guests play without an account: a guest session token, and your theme and notice choices, are kept in your browser&apos;s local
        storage. Clearing it starts a new guest. We do not use advertising or tracking cookies.
      </p>
    ),
  },
  {
    title: "Sharing",
    body: (
      <p>
        We do not sell or rent your information. We share it only with the services that host the casino, with Discord as part of signing
        in, and when the law requires it.
      </p>
    ),
  },
  {
    title: "Retention",
    body: (
      <p>
        Account and game records are kept while your account is active, because the coin ledger must stay complete to be checked. Inactive
        guest data may be deleted after a period without play. Logs are kept for a short time.
      </p>
    ),
  },
  {
    title: "Security",
    body: (
      <p>
        Sessions are signed and expire, traffic is encrypted in transit, and only the server can change balances. No system is perfectly
        secure, but we work to protect your information.
      </p>
    ),
  },
  {
    title: "Children",
    body: (
      <p>
        The casino is not for children under {MINIMUM_AGE}. We do not knowingly collect information from them; if you believe a child under{" "}
        {MINIMUM_AGE} uses the casino, tell us and we will delete their data.
      </p>
    ),
  },
  {
    title: "Your Choices and Rights",
    body: (
      <p>
        You can switch anonymous mode and reminders on or off at any time, stop using the casino, and ask to see, correct or delete your
        data, subject to the laws of your country. Ask through the Suggestions box.
      </p>
    ),
  },
  {
    title: "Changes to This Policy and Contact",
    body: (
      <p>
        We may update this policy; the date above shows the latest version, and signed-in players are asked to accept a new version before
        they continue playing. Questions are welcome through the in-app Suggestions box.
      </p>
    ),
  },
];

export default function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro={<p>Your privacy matters to us. The casino collects only what it needs to run a fair game of virtual coins.</p>}
      sections={SECTIONS}
    />
  );
}
