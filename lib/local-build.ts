import { type BundlingOptions, DockerImage, type ILocalBundling } from 'aws-cdk-lib';

/**
 * A build CDK runs in this process at synth, into its staging directory, like any bundled asset
 * (and skipped where bundling is, as in template tests). `key` names what is built: CDK caches
 * bundles by their options, and this is the part of them that tells two builds apart.
 */
class LocalBuild implements ILocalBundling {
  constructor(
    readonly key: string,
    private readonly build: (outputDir: string) => void,
  ) {}

  tryBundle(outputDir: string): boolean {
    this.build(outputDir);
    return true;
  }
}

export function buildOnSynth(key: string, build: (outputDir: string) => void): BundlingOptions {
  return {
    // never pulled: the local build succeeds or throws
    image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
    local: new LocalBuild(key, build),
  };
}
