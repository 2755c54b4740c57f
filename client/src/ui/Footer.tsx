import { Link } from "wouter";

export function Footer() {
  return (
    <footer className="mx-auto mt-10 w-full max-w-6xl px-4 pb-6 text-center text-sm text-muted-foreground">
      <p>Play responsibly. Virtual currency only.</p>
      <nav aria-label="Legal" className="mt-2 flex justify-center gap-4">
        <Link href="/terms" className="underline-offset-4 hover:underline">
          Terms of Service
        </Link>
        <Link href="/privacy" className="underline-offset-4 hover:underline">
          Privacy Policy
        </Link>
      </nav>
    </footer>
  );
}
