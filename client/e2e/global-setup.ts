import { setupSharedFakeHost } from "./fake-discord-host";

/** One fake Discord host page for every browser test file of the run. */
export default setupSharedFakeHost;
