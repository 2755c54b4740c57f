import { verifyHref } from "@casino/common/verifiers/verify-link";
import type { RoundVerifyAnswer } from "@casino/common/together";
import { api, seg } from "../../net/api";
import { toast } from "../../store/toast";

/**
 * Opens a round of a feed row or a share link in the verifier, once its server seed is revealed (its
 * player rotated the pair); before that, says so.
 */
export async function openRoundVerify(serverSeedHash: string, nonce: number, token: string, navigate: (to: string) => void): Promise<void> {
  try {
    const answer = await api<RoundVerifyAnswer>(`/rounds/${seg(serverSeedHash)}/${seg(nonce)}/verify`, { token });
    if (!answer.revealed) {
      toast({ title: "Not verifiable yet", description: "This round can be verified once its player reveals the server seed." });
      return;
    }
    navigate(
      verifyHref({
        game: answer.game,
        serverSeed: answer.serverSeed,
        serverSeedHash: answer.serverSeedHash,
        clientSeed: answer.clientSeed,
        nonce: answer.nonce,
        amount: answer.amount,
        params: answer.params,
        actions: answer.actions,
      }),
    );
  } catch (error) {
    console.warn("round not opened", error);
    toast({ title: "Error", description: "That round could not be found.", variant: "destructive" });
  }
}
