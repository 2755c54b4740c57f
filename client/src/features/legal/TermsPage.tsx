import { MINIMUM_AGE } from "@casino/common/constants";
import { LegalPage, type LegalSection } from "./LegalPage";

const SECTIONS: LegalSection[] = [
  {
    title: "Acceptance of These Terms",
    body: (
      <p>
        By opening or playing the casino, inside Discord or in a browser as a guest, you agree to these Terms of Service and to our Privacy
        Policy. If you do not agree, do not use the casino. Signed-in players are asked to accept each new version before they play.
      </p>
    ),
  },
  {
    title: "Eligibility",
    body: (
      <p>
        You must be at least {MINIMUM_AGE} years old, and old enough to use Discord where you live, to use the casino. If the law of your
        country sets a higher age for games of this kind, you must meet that age. We may close access for anyone who does not.
      </p>
    ),
  },
  {
    title: "Virtual Coins Only",
    body: (
      <>
        <p>The casino is entertainment. Everything you win or lose is a virtual coin:</p>
        <ul>
          <li>
            coins have no monetary value and can never be bought, sold, exchanged, withdrawn or redeemed for money, goods or services;
          </li>
          <li>coins cannot be transferred between players, and trading them outside the casino is not allowed;</li>
          <li>every player starts with 1,000 coins and can earn more through games and the daily bonus wheel.</li>
        </ul>
        <p>No real-money gambling takes place here, and success in the casino does not imply success at real-money gambling.</p>
      </>
    ),
  },
  {
    title: "Your Account",
    body: (
      <p>
        Inside Discord your account is your Discord identity; we receive your Discord user id, username and avatar when you sign in. As a
        guest you play without an account: your progress is tied to this browser and is lost if its storage is cleared. You are responsible
        for what happens under your account.
      </p>
    ),
  },
  {
    title: "Fair Play",
    body: (
      <>
        <p>You agree not to:</p>
        <ul>
          <li>use bots, scripts, automation or exploits to play, spin or collect rewards;</li>
          <li>attack, overload or probe the service, or tamper with its messages;</li>
          <li>create many accounts or guests to collect extra coins or bonuses;</li>
          <li>use offensive names or misuse the suggestion box.</li>
        </ul>
        <p>We may reset balances, remove leaderboard entries or block access when these rules are broken.</p>
      </>
    ),
  },
  {
    title: "Games and Outcomes",
    body: (
      <p>
        Every outcome is decided by our server with a provably fair random number generator; the rules and payouts of each game are shown in
        the game. The server&apos;s record of a round and of your balance is final. If an error credits or debits coins by mistake, we may
        correct it.
      </p>
    ),
  },
  {
    title: "Availability and Changes to the Service",
    body: (
      <p>
        The casino is provided as is and as available. Games, prizes, tags and features may change, be paused or be removed at any time, and
        we may reset leaderboards or balances when the service requires it, without any compensation since coins have no value.
      </p>
    ),
  },
  {
    title: "Limitation of Liability",
    body: (
      <p>
        To the fullest extent allowed by law, we are not liable for any indirect or consequential loss, for the loss of virtual coins or
        progress, or for interruptions of the service. Nothing in these terms limits rights you have under the law of your country that
        cannot be limited.
      </p>
    ),
  },
  {
    title: "Changes to These Terms and Contact",
    body: (
      <p>
        We may update these terms; the date above shows the latest version, and signed-in players are asked to accept a new version before
        they continue playing. Questions and feedback are welcome through the in-app Suggestions box.
      </p>
    ),
  },
];

export default function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      intro={<p>These terms govern your use of the casino, a free game of virtual coins played in Discord or in a browser.</p>}
      sections={SECTIONS}
    />
  );
}
