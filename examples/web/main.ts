/** cdktf app of the web example (`VIRTSEED_EXAMPLE=web npx cdktf synth`). VIRTSEED_IMAGE: a Debian cloud image. */
import { App } from 'cdktf';
import { WebStack } from './stack';

const app = new App();
new WebStack(app, 'web', process.env.VIRTSEED_IMAGE);
app.synth();
