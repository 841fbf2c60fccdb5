/**
 * cdktf app of the GitOps example (`VIRTSEED_EXAMPLE=gitops npx cdktf synth`, or ./pipeline.sh with
 * PIPELINE_APP_DIR at the repository root). Environment: see gitopsPropsFromEnv in ./stack.ts.
 */
import { App } from 'cdktf';
import { GitOpsStack, gitopsPropsFromEnv } from './stack';

const app = new App();
new GitOpsStack(app, 'gitops', gitopsPropsFromEnv());
app.synth();
