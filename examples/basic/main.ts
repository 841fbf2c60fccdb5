/**
 * cdktf app of the basic example (`npx cdktf synth|deploy basic`, or scripts/deploy-basic.sh).
 * Environment: see basicPropsFromEnv in ./stack.ts (VIRTSEED_IMAGE is required).
 */
import { App } from 'cdktf';
import { BasicStack, basicPropsFromEnv } from './stack';

const app = new App();
new BasicStack(app, 'basic', basicPropsFromEnv());
app.synth();
